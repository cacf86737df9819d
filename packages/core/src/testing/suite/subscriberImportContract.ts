import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SubscriberImportCollection } from "../../domain/Collections.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import type { EmailListId, SubscriberImportId, SubscriberImportUuid } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import type { ImportStatus } from "../../domain/ImportStatus.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { type CsvPart, SubscriberImportRepository } from "../../ports/SubscriberImportRepository.js"
import { at, type MakeStorage } from "./fixtures.js"
import { importFixtures } from "./importFixtures.js"

type ListOptions = {
  readonly sort?: string
  readonly page?: number
  readonly perPage?: number
  readonly filters?: { readonly status?: string; readonly email_list_id?: string }
}

const texts = (parts: ReadonlyArray<CsvPart>) => parts.map((part) => part.text)

/** SubscriberImportRepository conformance: drafts and their CSV parts, listing, status moves and leases. */
export const subscriberImportContract = (makeStorage: MakeStorage) =>
  describe("SubscriberImportRepository", () => {
    const { aList, errors, found, importing, insertImport, isMember, run, write } = importFixtures(makeStorage)
    const settings = (emailListId: EmailListId, updatedAt = at(9)) => ({
      emailListId,
      subscribeUnsubscribed: true,
      unsubscribeOthers: true,
      replaceTags: true,
      updatedAt
    })

    it.effect("inserts with the CSV as its first part and finds by id and uuid, keeping every field", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberImportRepository
        const list = yield* aList
        const csv = "email,first_name\nada@example.com,Grüße 👋\n"
        const saved = yield* insertImport(list, {
          subscribeUnsubscribed: true,
          replaceTags: true,
          createdAt: at(1),
          updatedAt: at(2)
        }, csv)
        expect(saved.id).toBeGreaterThan(0)
        expect(saved).toMatchObject({
          emailListId: list,
          status: "draft",
          subscribeUnsubscribed: true,
          unsubscribeOthers: false,
          replaceTags: true,
          importedSubscribersCount: null,
          errorCount: 0,
          processedRows: 0,
          windowRows: 0,
          csvLength: csv.length,
          failureReason: null,
          lockedUntil: null,
          startedAt: null,
          finishedAt: null
        })
        expect(saved.csvLength).toBe(42)
        expect(saved.createdAt).toEqual(at(1))
        expect(saved.updatedAt).toEqual(at(2))
        expect(Option.getOrThrow(yield* repo.findById(saved.id))).toEqual(saved)
        expect(Option.getOrThrow(yield* repo.findByUuid(saved.uuid))).toEqual(saved)
        expect(Option.isNone(yield* repo.findById(999 as SubscriberImportId))).toBe(true)
        expect(Option.isNone(yield* repo.findByUuid(newUuid() as SubscriberImportUuid))).toBe(true)
        expect(texts(yield* repo.csvParts(saved.id, 0, 10))).toEqual([csv])

        const other = yield* insertImport(list, { status: "failed", startedAt: at(3), failureReason: "No email column." })
        expect(other.id).toBeGreaterThan(saved.id)
        expect(other.startedAt).toEqual(at(3))
        expect(Option.getOrThrow(yield* repo.findById(other.id))).toEqual(other)
      })))

    it.effect("deleting an email list deletes its imports with their parts and refused rows, and only its own", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberImportRepository
        const [doomed, kept] = [yield* aList, yield* aList]
        const draft = yield* insertImport(doomed, {}, "email\na@example.com\n")
        const other = yield* insertImport(kept)
        yield* Effect.flatMap(EmailListRepository, (r) => r.delete(doomed))
        expect(Option.isNone(yield* repo.findById(draft.id))).toBe(true)
        expect(yield* repo.csvParts(draft.id, 0, 10)).toEqual([])
        expect(Option.isSome(yield* repo.findById(other.id))).toBe(true)
      })))

    it.effect("appends CSV parts to a draft, tracking its length, and reads them back in order and in pages", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberImportRepository
        const list = yield* aList
        const draft = yield* insertImport(list, {}, "email\n")
        const other = yield* insertImport(list, {}, "email\nother@example.com\n")
        const appended = Option.getOrThrow(yield* repo.append(draft.id, "a@example.com\n", at(5)))
        expect(appended).toMatchObject({ id: draft.id, status: "draft", csvLength: 20 })
        expect(appended.updatedAt).toEqual(at(5))
        expect(appended.createdAt).toEqual(draft.createdAt)
        yield* repo.append(other.id, "x@example.com\n", at(6))
        yield* repo.append(draft.id, "b@example.com\n", at(7))
        const last = Option.getOrThrow(yield* repo.append(draft.id, "c@example.com", at(8)))
        expect(last.csvLength).toBe("email\na@example.com\nb@example.com\nc@example.com".length)
        expect(yield* found(draft.id)).toEqual(last)

        const all = yield* repo.csvParts(draft.id, 0, 10)
        expect(texts(all)).toEqual(["email\n", "a@example.com\n", "b@example.com\n", "c@example.com"])
        const [first, second, third] = [
          yield* repo.csvParts(draft.id, 0, 2),
          yield* repo.csvParts(draft.id, all[1]!.seq, 2),
          yield* repo.csvParts(draft.id, all[3]!.seq, 2)
        ]
        expect(first).toEqual(all.slice(0, 2))
        expect(second).toEqual(all.slice(2))
        expect(third).toEqual([])
        expect(texts(yield* repo.csvParts(other.id, 0, 10))).toEqual(["email\nother@example.com\n", "x@example.com\n"])
      })))

    it.effect("replaces a draft's settings and CSV, forgetting the old parts", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberImportRepository
        const [one, two] = [yield* aList, yield* aList]
        const draft = yield* insertImport(one, {}, "email\na@example.com\n")
        yield* repo.append(draft.id, "b@example.com\n", at(3))
        const replaced = Option.getOrThrow(yield* repo.replace(draft.id, settings(two), "email\nnew@example.com\n"))
        expect(replaced).toMatchObject({
          id: draft.id,
          uuid: draft.uuid,
          emailListId: two,
          status: "draft",
          subscribeUnsubscribed: true,
          unsubscribeOthers: true,
          replaceTags: true,
          csvLength: "email\nnew@example.com\n".length
        })
        expect(replaced.updatedAt).toEqual(at(9))
        expect(replaced.createdAt).toEqual(draft.createdAt)
        expect(yield* found(draft.id)).toEqual(replaced)
        expect(texts(yield* repo.csvParts(draft.id, 0, 10))).toEqual(["email\nnew@example.com\n"])
        const back = Option.getOrThrow(yield* repo.replace(draft.id, { ...settings(one), replaceTags: false }, "email\n"))
        expect(back).toMatchObject({ emailListId: one, replaceTags: false, unsubscribeOthers: true, csvLength: 6 })
      })))

    it.effect("edits only drafts: a started, finished or missing import keeps its settings and CSV", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberImportRepository
        const [one, two] = [yield* aList, yield* aList]
        for (const status of ["pending", "importing", "completed", "failed"] as const) {
          const started = yield* insertImport(one, { status }, "email\na@example.com\n")
          expect(Option.isNone(yield* repo.replace(started.id, settings(two), "email\n")), status).toBe(true)
          expect(Option.isNone(yield* repo.append(started.id, "b@example.com\n", at(5))), status).toBe(true)
          expect(yield* found(started.id)).toEqual(started)
          expect(texts(yield* repo.csvParts(started.id, 0, 10))).toEqual(["email\na@example.com\n"])
        }
        expect(Option.isNone(yield* repo.replace(999 as SubscriberImportId, settings(two), "email\n"))).toBe(true)
        expect(Option.isNone(yield* repo.append(999 as SubscriberImportId, "email\n", at(5)))).toBe(true)
      })))

    it.effect("drops the CSV of one import, keeping the import and the others' CSV", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberImportRepository
        const list = yield* aList
        const done = yield* insertImport(list, { status: "completed" }, "email\na@example.com\n")
        const draft = yield* insertImport(list, {}, "email\nb@example.com\n")
        yield* repo.dropCsv(done.id)
        expect(yield* repo.csvParts(done.id, 0, 10)).toEqual([])
        expect(yield* found(done.id)).toEqual({ ...done, csvLength: 0 })
        expect(texts(yield* repo.csvParts(draft.id, 0, 10))).toEqual(["email\nb@example.com\n"])
        expect((yield* found(draft.id)).csvLength).toBe(draft.csvLength)
      })))

    it.effect("deletes an import once, with its CSV and refused rows, keeping the subscribers it wrote and other imports", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberImportRepository
        const list = yield* aList
        const doomed = yield* importing(list)
        const kept = yield* importing(list)
        yield* write(doomed, ["a@example.com", "bad"])
        yield* write(kept, ["b@example.com", "worse"])
        expect((yield* errors(doomed.id)).total).toBe(1)

        expect(yield* repo.delete(doomed.id)).toBe(true)
        expect(Option.isNone(yield* repo.findById(doomed.id))).toBe(true)
        expect(Option.isNone(yield* repo.findByUuid(doomed.uuid))).toBe(true)
        expect(yield* repo.csvParts(doomed.id, 0, 10)).toEqual([])
        expect(yield* errors(doomed.id)).toEqual({ total: 0, rows: [] })
        expect(yield* repo.delete(doomed.id)).toBe(false)
        expect(yield* isMember(list, "a@example.com")).toBe(true)

        expect((yield* found(kept.id)).processedRows).toBe(2)
        expect(texts(yield* repo.csvParts(kept.id, 0, 10))).toEqual(["email\n"])
        expect((yield* errors(kept.id)).rows).toEqual([{ line: 3, email: "worse", reason: "The email is not a valid address." }])
      })))

    it.effect("lists imports sorted by creation or update time, filtered by status and list, in pages", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberImportRepository
        const [one, two] = [yield* aList, yield* aList]
        const a = yield* insertImport(one, { createdAt: at(1), updatedAt: at(40) })
        const b = yield* insertImport(one, { status: "completed", createdAt: at(3), updatedAt: at(10) })
        const c = yield* insertImport(two, { status: "failed", createdAt: at(2), updatedAt: at(30) })
        const d = yield* insertImport(one, { status: "importing", createdAt: at(3), updatedAt: at(20) })
        const list = (options: ListOptions) =>
          Effect.gen(function*() {
            const page = yield* repo.list(yield* makeCollectionQuery(SubscriberImportCollection, options))
            return { ids: page.items.map((i) => i.id), total: page.total }
          })
        expect(yield* list({})).toEqual({ ids: [d.id, b.id, c.id, a.id], total: 4 })
        expect(yield* list({ sort: "created_at" })).toEqual({ ids: [a.id, c.id, b.id, d.id], total: 4 })
        expect(yield* list({ sort: "-updated_at" })).toEqual({ ids: [a.id, c.id, d.id, b.id], total: 4 })
        expect(yield* list({ sort: "updated_at", perPage: 2, page: 2 })).toEqual({ ids: [c.id, a.id], total: 4 })
        expect(yield* list({ sort: "created_at", filters: { status: "completed, failed" } })).toEqual({ ids: [c.id, b.id], total: 2 })
        expect(yield* list({ sort: "created_at", filters: { email_list_id: String(one) } })).toEqual({ ids: [a.id, b.id, d.id], total: 3 })
        expect(yield* list({ filters: { email_list_id: String(one), status: "draft,importing" } })).toEqual({ ids: [d.id, a.id], total: 2 })
        expect(yield* list({ filters: { status: "pending" } })).toEqual({ ids: [], total: 0 })
        expect(yield* list({ filters: { email_list_id: "nope" } })).toEqual({ ids: [], total: 0 })
        expect((yield* repo.list(yield* makeCollectionQuery(SubscriberImportCollection, { sort: "created_at" }))).items[0])
          .toEqual(a)
      })))

    it.effect("moves an import only from the given statuses, writing the given progress and keeping the rest", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberImportRepository
        const list = yield* aList
        const draft = yield* insertImport(list, {}, "email\na@example.com\n")
        expect(Option.isNone(yield* repo.transition(draft.id, ["pending"], "importing", { updatedAt: at(2) }))).toBe(true)
        expect(yield* found(draft.id)).toEqual(draft)

        const pending = Option.getOrThrow(yield* repo.transition(draft.id, ["draft"], "pending", { updatedAt: at(2) }))
        expect(pending).toEqual({ ...draft, status: "pending", updatedAt: at(2) })
        const begun = Option.getOrThrow(yield* repo.transition(draft.id, ["pending"], "importing", {
          importedSubscribersCount: 0,
          errorCount: 0,
          processedRows: 0,
          windowRows: 40_000,
          startedAt: at(3),
          lockedUntil: at(33),
          updatedAt: at(3)
        }))
        expect(begun).toMatchObject({ status: "importing", importedSubscribersCount: 0, windowRows: 40_000, csvLength: draft.csvLength, finishedAt: null })
        expect(begun.startedAt).toEqual(at(3))
        expect(begun.lockedUntil).toEqual(at(33))
        expect(yield* found(draft.id)).toEqual(begun)

        const failed = Option.getOrThrow(yield* repo.transition(draft.id, ["pending", "importing"], "failed", {
          failureReason: "The CSV is empty: it has no header row.",
          finishedAt: at(4),
          lockedUntil: null,
          updatedAt: at(4)
        }))
        expect(failed).toMatchObject({ status: "failed", failureReason: "The CSV is empty: it has no header row.", lockedUntil: null })
        expect(failed.startedAt).toEqual(at(3))
        expect(failed.finishedAt).toEqual(at(4))
        expect(Option.isNone(yield* repo.transition(draft.id, ["importing"], "completed", { updatedAt: at(5) }))).toBe(true)
        expect(yield* found(draft.id)).toEqual(failed)
        expect(Option.isNone(yield* repo.transition(999 as SubscriberImportId, ["draft"], "pending", {}))).toBe(true)
      })))

    it.effect("claims the oldest waiting import whose lease has run out, leasing it", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberImportRepository
        const list = yield* aList
        const statuses: ReadonlyArray<ImportStatus> = ["draft", "completed", "failed"]
        for (const status of statuses) yield* insertImport(list, { status })
        const leased = yield* importing(list, { lockedUntil: at(100) })
        const pending = yield* insertImport(list, { status: "pending" })
        const expired = yield* importing(list, { lockedUntil: at(20) })

        const first = Option.getOrThrow(yield* repo.claim(at(50), at(80)))
        expect(first).toEqual({ ...pending, lockedUntil: at(80) })
        expect(yield* found(pending.id)).toEqual(first)
        expect(Option.getOrThrow(yield* repo.claim(at(50), at(81))).id).toBe(expired.id)
        expect((yield* found(expired.id)).lockedUntil).toEqual(at(81))
        expect(Option.isNone(yield* repo.claim(at(60), at(90)))).toBe(true)
        expect(Option.isNone(yield* repo.claim(at(79), at(110)))).toBe(true)

        const again = Option.getOrThrow(yield* repo.claim(at(101), at(130)))
        expect(again).toEqual({ ...leased, lockedUntil: at(130) })
        expect(Option.getOrThrow(yield* repo.claim(at(102), at(131))).id).toBe(pending.id)
        yield* repo.transition(expired.id, ["importing"], "completed", { lockedUntil: null, updatedAt: at(103) })
        expect(Option.isNone(yield* repo.claim(at(104), at(140)))).toBe(true)
        expect(Option.getOrThrow(yield* repo.claim(at(1000), at(1030))).id).toBe(leased.id)
        expect(Option.getOrThrow(yield* repo.claim(at(1000), at(1030))).id).toBe(pending.id)
        expect(Option.isNone(yield* repo.claim(at(1000), at(1030)))).toBe(true)
      })))

    it.effect("hands each waiting import to one of several workers claiming at once", () =>
      run(Effect.gen(function*() {
        const repo = yield* SubscriberImportRepository
        const list = yield* aList
        const waiting = [
          yield* insertImport(list, { status: "pending" }),
          yield* importing(list),
          yield* insertImport(list, { status: "pending" })
        ]
        const claims = yield* Effect.all(Array.from({ length: 6 }, () => repo.claim(at(10), at(40))), { concurrency: "unbounded" })
        const claimed = claims.flatMap(Option.toArray).map((i) => i.id).sort((a, b) => a - b)
        expect(claimed).toEqual(waiting.map((i) => i.id))
      })))
  })
