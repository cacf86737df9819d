/**
 * Authentication by a token's secret: a token revoked through the use case is refused at once; one deleted behind its
 * back (by another process on the same database) is refused once TOKEN_RECHECK_MS has passed, not later.
 */
import { describe, expect, it } from "@effect/vitest"
import { ApiTokenRepository, type ApiTokenUuid, hashToken, newUuid, TOKEN_RECHECK_MS, Tokens } from "@mailroom/core"
import { MemoryStorage } from "@mailroom/core/testing"
import { Deferred, Effect, Fiber, Layer, TestClock } from "effect"

const TestLayer = Tokens.Default.pipe(Layer.provideMerge(MemoryStorage))

/** The memory store, whose first look-up by hash completes `read` once it has read the token, then waits for `gate`. */
const slowFirstLookUp = (read: Deferred.Deferred<void>, gate: Deferred.Deferred<void>) =>
  Layer.effect(
    ApiTokenRepository,
    Effect.map(ApiTokenRepository, (repo) => {
      let first = true
      return ApiTokenRepository.of({
        ...repo,
        findByHash: (hash) => {
          const waits = first
          first = false
          return Effect.flatMap(repo.findByHash(hash), (found) => (waits ? Effect.as(Effect.zipRight(Deferred.succeed(read, undefined), Deferred.await(gate)), found) : Effect.succeed(found)))
        }
      })
    })
  ).pipe(Layer.provide(MemoryStorage))

/** Whether the secret authenticates now. */
const accepted = (secret: string) =>
  Effect.flatMap(Tokens, (tokens) => tokens.authenticate(secret)).pipe(Effect.as(true), Effect.catchTag("Unauthenticated", () => Effect.succeed(false)))

describe("Tokens.authenticate", () => {
  it.effect("a token revoked here is refused at once, though it was used a moment before", () =>
    Effect.gen(function*() {
      const tokens = yield* Tokens
      const { secret, token } = yield* tokens.create("ci", ["read"])
      expect(yield* accepted(secret)).toBe(true)
      yield* tokens.revoke(token.uuid)
      expect(yield* accepted(secret)).toBe(false)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("a token deleted by another process is refused within TOKEN_RECHECK_MS", () =>
    Effect.gen(function*() {
      const tokens = yield* Tokens
      const repo = yield* ApiTokenRepository
      const { secret, token } = yield* tokens.create("ci", ["read"])
      expect(yield* accepted(secret)).toBe(true)
      yield* repo.delete(token.uuid)
      yield* TestClock.adjust(TOKEN_RECHECK_MS - 1)
      expect(yield* accepted(secret)).toBe(true)
      yield* TestClock.adjust(1)
      expect(yield* accepted(secret)).toBe(false)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("a look-up that was under way when the token was revoked does not remember what it found", () =>
    Effect.gen(function*() {
      const read = yield* Deferred.make<void>()
      const gate = yield* Deferred.make<void>()
      yield* Effect.gen(function*() {
        const tokens = yield* Tokens
        const { secret, token } = yield* tokens.create("ci", ["read"])
        const during = yield* Effect.fork(accepted(secret))
        yield* Deferred.await(read)
        yield* tokens.revoke(token.uuid)
        yield* Deferred.succeed(gate, undefined)
        expect(yield* Fiber.join(during)).toBe(true)
        expect(yield* accepted(secret)).toBe(false)
      }).pipe(Effect.provide(Tokens.Default.pipe(Layer.provideMerge(slowFirstLookUp(read, gate)))))
    }))

  it.effect("ensuring the seed token forgets the one it replaced: the secret then has every ability", () =>
    Effect.gen(function*() {
      const tokens = yield* Tokens
      const repo = yield* ApiTokenRepository
      const secret = "mr_seed"
      yield* repo.insert({ uuid: newUuid() as ApiTokenUuid, name: "seed", tokenHash: yield* hashToken(secret), abilities: ["read"], createdAt: new Date(0) })
      expect((yield* tokens.authenticate(secret)).can("all")).toBe(false)
      yield* tokens.ensure(secret, "seed")
      expect((yield* tokens.authenticate(secret)).can("all")).toBe(true)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("a secret that was refused is asked of the store again: a token made by another process works at once", () =>
    Effect.gen(function*() {
      const repo = yield* ApiTokenRepository
      const secret = "mr_made-elsewhere"
      expect(yield* accepted(secret)).toBe(false)
      const tokenHash = yield* hashToken(secret)
      yield* repo.insert({ uuid: newUuid() as ApiTokenUuid, name: "elsewhere", tokenHash, abilities: ["read"], createdAt: new Date(0) })
      expect(yield* accepted(secret)).toBe(true)
    }).pipe(Effect.provide(TestLayer)))
})
