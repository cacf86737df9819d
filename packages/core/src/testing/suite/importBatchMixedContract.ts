import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { UNSUBSCRIBED_REASON } from "../../domain/ImportDecision.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { line, recordedAtLeast, recordedThrough } from "./eventsContract.js"
import { at, type MakeStorage } from "./fixtures.js"
import { importFixtures } from "./importFixtures.js"

/**
 * ImportBatchRepository conformance for a batch that does everything at once (updates, inserts, tags replaced and
 * added, refusals) with text a bulk path must carry exactly: tabs, line breaks, backslashes, quotes, a literal `\N`.
 */
export const importBatchMixedContract = (makeStorage: MakeStorage) =>
  describe("ImportBatchRepository mixed batch", () => {
    const { aList, errors, importing, member, run, statusCounts, subscribe, tagCounts, tagsOf, write } = importFixtures(makeStorage)

    it.effect("updates, inserts, tags, refuses and records events in one batch, keeping every character", () =>
      run(Effect.gen(function*() {
        const list = yield* aList
        const [keep] = yield* tagsOf(list, "keep")
        const old = yield* subscribe(list, { email: "old@example.com", firstName: "Old" })
        yield* (yield* SubscriberRepository).addTags(old.id, [keep!])
        const gone = yield* subscribe(list, { email: "gone@example.com", unsubscribedAt: at(1) })
        // on Postgres the set-up's events may become readable late (another test's open transaction): wait for its last
        const skip = (yield* recordedThrough(`subscriber.created ${gone.id}`)).length
        const subscriberImport = yield* importing(list, { replaceTags: true })
        const { after, written } = yield* write(subscriberImport, [
          "old@example.com,Tab\there,Back\\slash,new;Keep,Line\nbreak \"quoted\"",
          "fresh@example.com,Ünïcødé ✓,\\N,new;back\\slash,C:\\path\r\nx",
          "gone@example.com,,,new",
          "bad",
          "plain@example.com"
        ], { header: "email,first_name,last_name,tags,company", at: at(100) })

        expect(written).toEqual(Option.some({ rejected: 2 }))
        expect(after).toMatchObject({ processedRows: 5, importedSubscribersCount: 5, errorCount: 2 })
        expect(yield* member(list, "old@example.com")).toMatchObject({
          id: old.id,
          firstName: "Tab\there",
          lastName: "Back\\slash",
          extraAttributes: { company: "Line\nbreak \"quoted\"" },
          tags: ["keep", "new"]
        })
        const fresh = yield* member(list, "fresh@example.com")
        expect(fresh).toMatchObject({
          firstName: "Ünïcødé ✓",
          lastName: "\\N",
          extraAttributes: { company: "C:\\path\r\nx" },
          tags: ["back\\slash", "new"]
        })
        expect(fresh.createdAt).toEqual(at(100))
        const plain = yield* member(list, "plain@example.com")
        expect(plain).toMatchObject({ firstName: null, lastName: null, extraAttributes: {}, tags: [] })
        expect(yield* statusCounts(list)).toEqual({ subscribed: 3, unconfirmed: 0, unsubscribed: 1 })
        expect(yield* tagCounts(list)).toEqual({ "back\\slash": 1, keep: 1, new: 2 })
        expect((yield* errors(subscriberImport.id)).rows).toEqual([
          { line: 4, email: "gone@example.com", reason: UNSUBSCRIBED_REASON },
          { line: 5, email: "bad", reason: "The email is not a valid address." }
        ])
        expect((yield* recordedAtLeast(skip + 5)).slice(skip).map(line).sort()).toEqual([
          `subscriber.created ${fresh.id}`,
          `subscriber.created ${plain.id}`,
          `tag.added ${fresh.id} back\\slash`,
          `tag.added ${fresh.id} new`,
          `tag.added ${old.id} new`
        ].sort())
      })))
  })
