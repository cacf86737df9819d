import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { ApiTokenUuid } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import { ApiTokenRepository } from "../../ports/ApiTokenRepository.js"
import { at, type MakeStorage } from "./fixtures.js"

/** ApiTokenRepository conformance. */
export const apiTokenContract = (makeStorage: MakeStorage) =>
  describe("ApiTokenRepository", () => {
    const run = <A, E>(effect: Effect.Effect<A, E, ApiTokenRepository>) => Effect.provide(effect, makeStorage())
    const aToken = (name: string, tokenHash: string, abilities: ReadonlyArray<"all" | "read" | "write" | "send">) => ({
      uuid: newUuid() as ApiTokenUuid,
      name,
      tokenHash,
      abilities,
      createdAt: at(0)
    })

    it.effect("finds a token by hash with its abilities", () =>
      run(Effect.gen(function*() {
        const repo = yield* ApiTokenRepository
        const saved = yield* repo.insert(aToken("ci", "a".repeat(64), ["read", "send"]))
        const found = Option.getOrThrow(yield* repo.findByHash("a".repeat(64)))
        expect(found).toEqual(saved)
        expect(found.abilities).toEqual(["read", "send"])
        expect(found.can("read")).toBe(true)
        expect(found.can("write")).toBe(false)
        expect(Option.isNone(yield* repo.findByHash("b".repeat(64)))).toBe(true)
      })))

    it.effect("lists tokens in creation order and deletes by uuid", () =>
      run(Effect.gen(function*() {
        const repo = yield* ApiTokenRepository
        const one = yield* repo.insert(aToken("one", "1".repeat(64), ["all"]))
        const two = yield* repo.insert(aToken("two", "2".repeat(64), ["read"]))
        expect((yield* repo.list()).map((t) => t.name)).toEqual(["one", "two"])
        expect(yield* repo.delete(one.uuid)).toBe(true)
        expect(yield* repo.delete(one.uuid)).toBe(false)
        expect((yield* repo.list()).map((t) => t.uuid)).toEqual([two.uuid])
      })))
  })
