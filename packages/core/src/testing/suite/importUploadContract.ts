import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { type CsvPart, SubscriberImportRepository } from "../../ports/SubscriberImportRepository.js"
import { at, type MakeStorage } from "./fixtures.js"
import { importFixtures } from "./importFixtures.js"

const texts = (parts: ReadonlyArray<CsvPart>) => parts.map((part) => part.text)

/** SubscriberImportRepository conformance for large uploads: however a store keeps them, they read back as sent. */
export const importUploadContract = (makeStorage: MakeStorage) =>
  describe("SubscriberImportRepository, large uploads", () => {
    const { aList, insertImport, run } = importFixtures(makeStorage)

    it.effect("a CSV text of several MB comes back whole and in order, after the parts before it", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberImportRepository
        const draft = yield* insertImport(yield* aList, {}, "email\n")
        const rows = Array.from({ length: 120_000 }, (_, i) => `user${i}@example.com,Ünïcödé ${i} 😀`).join("\n")
        yield* repo.append(draft.id, rows, at(5))
        yield* repo.append(draft.id, "\nlast@example.com\n", at(6))
        const read: Array<string> = []
        for (let after = 0, parts = yield* repo.csvParts(draft.id, 0, 3); parts.length > 0; parts = yield* repo.csvParts(draft.id, after, 3)) {
          read.push(...texts(parts))
          after = parts.at(-1)!.seq
        }
        expect(read.join("")).toBe(`email\n${rows}\nlast@example.com\n`)
        expect(read[0]).toBe("email\n")
        expect(read.at(-1)).toBe("\nlast@example.com\n")
      })))
  })
