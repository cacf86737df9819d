import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { TemplateRepository } from "../../ports/TemplateRepository.js"
import { Transactor } from "../../ports/Transactor.js"
import { aTemplate, type MakeStorage } from "./fixtures.js"

/** Transactor conformance: commit, rollback on failure, nesting. */
export const transactorContract = (makeStorage: MakeStorage) =>
  describe("Transactor", () => {
    const run = <A, E>(effect: Effect.Effect<A, E, TemplateRepository | Transactor>) => Effect.provide(effect, makeStorage())

    it.effect("keeps the writes of a transaction that succeeds", () =>
      run(Effect.gen(function*() {
        const repo = yield* TemplateRepository
        const { withTransaction } = yield* Transactor
        const saved = yield* withTransaction(Effect.zipRight(repo.insert(aTemplate({ name: "a" })), repo.insert(aTemplate({ name: "b" }))))
        expect(Option.isSome(yield* repo.findById(saved.id))).toBe(true)
      })))

    it.effect("undoes every write of a transaction that fails", () =>
      run(Effect.gen(function*() {
        const repo = yield* TemplateRepository
        const { withTransaction } = yield* Transactor
        const kept = yield* repo.insert(aTemplate({ name: "kept" }))
        const exit = yield* Effect.exit(withTransaction(Effect.gen(function*() {
          yield* repo.insert(aTemplate({ name: "lost" }))
          yield* repo.delete(kept.id)
          return yield* Effect.fail("boom")
        })))
        expect(Exit.isFailure(exit)).toBe(true)
        expect(Option.isSome(yield* repo.findById(kept.id))).toBe(true)
        expect((yield* repo.findByUuid(kept.uuid)).pipe(Option.map((t) => t.name))).toEqual(Option.some("kept"))
      })))

    it.effect("joins nested transactions into the outer one", () =>
      run(Effect.gen(function*() {
        const repo = yield* TemplateRepository
        const { withTransaction } = yield* Transactor
        const exit = yield* Effect.exit(withTransaction(Effect.gen(function*() {
          const inner = yield* withTransaction(repo.insert(aTemplate({ name: "inner" })))
          expect(Option.isSome(yield* repo.findById(inner.id))).toBe(true)
          return yield* Effect.fail("outer fails")
        })))
        expect(Exit.isFailure(exit)).toBe(true)
        const nested = yield* withTransaction(withTransaction(repo.insert(aTemplate({ name: "both" }))))
        expect(Option.isSome(yield* repo.findById(nested.id))).toBe(true)
      })))

    it.effect("keeps an atomic write on its own, and undoes one inside a transaction that fails", () =>
      run(Effect.gen(function*() {
        const repo = yield* TemplateRepository
        const { withAtomicWrite, withTransaction } = yield* Transactor
        const alone = yield* withAtomicWrite(repo.insert(aTemplate({ name: "alone" })))
        expect(Option.isSome(yield* repo.findById(alone.id))).toBe(true)
        let joined = alone
        const exit = yield* Effect.exit(withTransaction(Effect.gen(function*() {
          joined = yield* withAtomicWrite(repo.insert(aTemplate({ name: "joined" })))
          return yield* Effect.fail("outer fails")
        })))
        expect(Exit.isFailure(exit)).toBe(true)
        expect(joined.id).not.toBe(alone.id)
        expect(Option.isNone(yield* repo.findById(joined.id))).toBe(true)
      })))
  })
