/**
 * The import worker's windows: rows are written sorted by address, window by window, and a worker that dies in the
 * middle of a window (or an import begun in the CSV's order by an earlier version) resumes with every row written once.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  EmailListRepository,
  type EmailListId,
  ImportBatchRepository,
  ImportOptions,
  ImportWorker,
  type SubscriberImport,
  SubscriberImportRepository,
  SubscriberRepository,
  TagRepository
} from "@mailroom/core"
import { MemoryStorage } from "@mailroom/core/testing"
import { Duration, Effect, Exit, Layer, Option, TestClock } from "effect"
import { anImport } from "../src/testing/suite/importFixtures.js"
import { anEmailList, at } from "../src/testing/suite/fixtures.js"
import { plainCsv } from "./plainCsv.js"

/** Writes allowed before the store "crashes" (dies on the next write); Infinity: never. */
let writesLeft = Infinity

/** The memory store, whose batch writes die once `writesLeft` runs out, as a killed process stops. */
const crashingBatches = Layer.effect(
  ImportBatchRepository,
  Effect.map(ImportBatchRepository, (repo) =>
    ImportBatchRepository.of({
      ...repo,
      write: (batch) => Effect.suspend(() => (writesLeft-- > 0 ? repo.write(batch) : Effect.die("the process was killed")))
    }))
).pipe(Layer.provide(MemoryStorage))

const TestLayer = ImportWorker.Default.pipe(
  Layer.provide(Layer.effect(ImportOptions, Effect.map(ImportOptions, (d) => ({ ...d, batchSize: 2, windowRows: 6 })))),
  Layer.provideMerge(Layer.merge(MemoryStorage, crashingBatches)),
  Layer.provideMerge(plainCsv)
)

/** A started (pending) import of `lines` under `header` (default `email`) into a new list. */
const pendingImport = (lines: ReadonlyArray<string>, overrides: Parameters<typeof anImport>[1] = {}, header = "email") =>
  Effect.gen(function*() {
    const list = yield* Effect.flatMap(EmailListRepository, (r) => r.insert(anEmailList()))
    const imports = yield* SubscriberImportRepository
    const draft = yield* imports.insert(anImport(list.id, { status: "pending", ...overrides }), `${header}\n${lines.join("\n")}\n`)
    return { list: list.id, draft }
  })

/** Those of `emails` on the list, in the order they were written (by id). */
const writtenOrder = (list: EmailListId, emails: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const subscribers = yield* SubscriberRepository
    const found: Array<{ readonly email: string; readonly id: number }> = []
    for (const email of emails) {
      const subscriber = yield* subscribers.findByEmail(list, email)
      if (Option.isSome(subscriber)) found.push(subscriber.value)
    }
    return found.sort((a, b) => a.id - b.id).map((s) => s.email)
  })

const reload = (subscriberImport: SubscriberImport) =>
  Effect.map(Effect.flatMap(SubscriberImportRepository, (r) => r.findById(subscriberImport.id)), Option.getOrThrow)

describe("ImportWorker windows", () => {
  it.effect("writes each window sorted by address, refused rows first, and records the window it began with", () =>
    Effect.gen(function*() {
      writesLeft = Infinity
      const lines = ["f@x.io", "e@x.io", "bad", "d@x.io", "c@x.io", "b@x.io", "z@x.io", "a@x.io"]
      const { draft, list } = yield* pendingImport(lines)
      expect(yield* Effect.flatMap(ImportWorker, (w) => w.drain())).toBe(1)
      expect(yield* writtenOrder(list, lines)).toEqual(["b@x.io", "c@x.io", "d@x.io", "e@x.io", "f@x.io", "a@x.io", "z@x.io"])
      expect(yield* reload(draft)).toMatchObject({ status: "completed", windowRows: 6, processedRows: 8, errorCount: 1 })
    }).pipe(Effect.provide(TestLayer)))

  it.effect("a tag the import creates is spelled as in the first row naming it, though rows are written by address", () =>
    Effect.gen(function*() {
      writesLeft = Infinity
      const { list } = yield* pendingImport(["z@x.io,VIP", "a@x.io,vip;News", "m@x.io,news"], {}, "email,tags")
      expect(yield* Effect.flatMap(ImportWorker, (w) => w.drain())).toBe(1)
      const tags = yield* Effect.flatMap(TagRepository, (r) => r.findByRefs(list, ["vip", "news"]))
      expect(tags.map((tag) => tag.name).sort()).toEqual(["News", "VIP"])
    }).pipe(Effect.provide(TestLayer)))

  it.effect("a worker that dies in the middle of a window is resumed there: every row written once", () =>
    Effect.gen(function*() {
      const addresses = Array.from({ length: 15 }, (_, i) => `${String.fromCharCode(111 - i)}${i}@x.io`)
      const { draft, list } = yield* pendingImport([...addresses.slice(0, 9), "not-an-address", ...addresses.slice(9)])
      writesLeft = 4
      expect(Exit.isFailure(yield* Effect.exit(Effect.flatMap(ImportWorker, (w) => w.drain())))).toBe(true)
      expect(yield* reload(draft)).toMatchObject({ status: "importing", processedRows: 8 })
      writesLeft = Infinity
      yield* TestClock.adjust(Duration.minutes(1))
      expect(yield* Effect.flatMap(ImportWorker, (w) => w.drain())).toBe(1)
      const written = yield* writtenOrder(list, addresses)
      expect(written).toHaveLength(15)
      expect(new Set(written)).toEqual(new Set(addresses))
      expect(yield* reload(draft)).toMatchObject({ status: "completed", processedRows: 16, errorCount: 1 })
    }).pipe(Effect.provide(TestLayer)))

  it.effect("an import begun in the CSV's order (window_rows 0, before windows) resumes in the CSV's order", () =>
    Effect.gen(function*() {
      writesLeft = Infinity
      const lines = ["e@x.io", "d@x.io", "c@x.io", "b@x.io", "a@x.io"]
      const { draft, list } = yield* pendingImport(lines, {
        status: "importing",
        processedRows: 2,
        importedSubscribersCount: 2,
        startedAt: at(0),
        windowRows: 0
      })
      expect(yield* Effect.flatMap(ImportWorker, (w) => w.drain())).toBe(1)
      expect(yield* writtenOrder(list, lines)).toEqual(["c@x.io", "b@x.io", "a@x.io"])
      expect(yield* reload(draft)).toMatchObject({ status: "completed", windowRows: 0, processedRows: 5 })
    }).pipe(Effect.provide(TestLayer)))
})
