import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SuppressionCollection } from "../../domain/Collections.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import type { SuppressionUuid } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import { SuppressionRepository } from "../../ports/SuppressionRepository.js"
import { aSuppression, at, type MakeStorage } from "./fixtures.js"

const emails = (page: { readonly items: ReadonlyArray<{ readonly email: string }> }) => page.items.map((s) => s.email)

/** SuppressionRepository conformance. */
export const suppressionContract = (makeStorage: MakeStorage) =>
  describe("SuppressionRepository", () => {
    const run = <A, E>(effect: Effect.Effect<A, E, SuppressionRepository>) => Effect.provide(effect, makeStorage())
    const list = (options: Parameters<typeof makeCollectionQuery<"created_at", "search" | "reason", never>>[1]) =>
      Effect.flatMap(makeCollectionQuery(SuppressionCollection, options), (q) => Effect.flatMap(SuppressionRepository, (r) => r.list(q)))

    it.effect("inserts a new address and returns the existing record for a known one", () =>
      run(Effect.gen(function*() {
        const repo = yield* SuppressionRepository
        const first = yield* repo.insertOrGet(aSuppression({ email: "a@example.com", reason: "hard_bounce" }))
        expect(first.created).toBe(true)
        expect(first.suppression).toMatchObject({ email: "a@example.com", reason: "hard_bounce" })
        const again = yield* repo.insertOrGet(aSuppression({ email: "a@example.com", reason: "manual", createdAt: at(9) }))
        expect(again.created).toBe(false)
        expect(again.suppression).toEqual(first.suppression)
        expect((yield* list({})).total).toBe(1)
      })))

    it.effect("finds by uuid and by email", () =>
      run(Effect.gen(function*() {
        const repo = yield* SuppressionRepository
        const { suppression } = yield* repo.insertOrGet(aSuppression({ email: "b@example.com" }))
        expect(Option.getOrThrow(yield* repo.findByUuid(suppression.uuid))).toEqual(suppression)
        expect(Option.getOrThrow(yield* repo.findByEmail("b@example.com"))).toEqual(suppression)
        expect(Option.isNone(yield* repo.findByEmail("c@example.com"))).toBe(true)
        expect(Option.isNone(yield* repo.findByUuid(newUuid() as SuppressionUuid))).toBe(true)
      })))

    it.effect("deletes once, after which the address can be suppressed again", () =>
      run(Effect.gen(function*() {
        const repo = yield* SuppressionRepository
        const { suppression } = yield* repo.insertOrGet(aSuppression())
        expect(yield* repo.delete(suppression.id)).toBe(true)
        expect(yield* repo.delete(suppression.id)).toBe(false)
        expect((yield* repo.insertOrGet(aSuppression())).created).toBe(true)
      })))

    it.effect("lists newest first by default, filters by reason and fuzzy email", () =>
      run(Effect.gen(function*() {
        const repo = yield* SuppressionRepository
        yield* repo.insertOrGet(aSuppression({ email: "old@example.com", createdAt: at(1), reason: "hard_bounce" }))
        yield* repo.insertOrGet(aSuppression({ email: "new@example.com", createdAt: at(3) }))
        yield* repo.insertOrGet(aSuppression({ email: "mid@test.org", createdAt: at(2), reason: "spam_complaint" }))
        expect(emails(yield* list({}))).toEqual(["new@example.com", "mid@test.org", "old@example.com"])
        expect(emails(yield* list({ sort: "created_at" }))).toEqual(["old@example.com", "mid@test.org", "new@example.com"])
        expect(emails(yield* list({ filters: { reason: "hard_bounce" } }))).toEqual(["old@example.com"])
        expect(emails(yield* list({ filters: { reason: "unknown" } }))).toEqual([])
        expect(emails(yield* list({ filters: { search: "EXAMPLE" } }))).toEqual(["new@example.com", "old@example.com"])
      })))
  })
