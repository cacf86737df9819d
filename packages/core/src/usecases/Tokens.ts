import { Clock, Effect, Encoding, Option } from "effect"
import type { Ability, ApiToken } from "../domain/ApiToken.js"
import type { Page } from "../domain/CollectionQuery.js"
import type { TokenQuery } from "../domain/Collections.js"
import { type ApiTokenUuid, newUuid } from "../domain/Ids.js"
import { Forbidden } from "../errors/Forbidden.js"
import { NotFound } from "../errors/NotFound.js"
import { Unauthenticated } from "../errors/Unauthenticated.js"
import { ValidationError } from "../errors/ValidationError.js"
import { ApiTokenRepository } from "../ports/ApiTokenRepository.js"
import { Sha256, type Sha256Function } from "../ports/Sha256.js"
import { parseUuid } from "./lookup.js"
import { now } from "./now.js"
import { recentlyFound } from "./recentlyFound.js"

/** SHA-256 of a token secret, hex encoded: the only form in which secrets are stored (synchronous with `sha256`). */
export const hashToken = (secret: string, sha256: Sha256Function | null = null): Effect.Effect<string> =>
  sha256 !== null
    ? Effect.sync(() => sha256(secret))
    : Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret))).pipe(
      Effect.map((digest) => Encoding.encodeHex(new Uint8Array(digest)))
    )

/**
 * How long a token found by its secret is taken without asking the store again (ms): a revocation through this process
 * applies at once, one made through another process (another API server on the same database) within this time.
 */
export const TOKEN_RECHECK_MS = 1_000

/** Most tokens remembered at once. */
const MOST_REMEMBERED = 1_000

const newSecret = (): string => `mr_${Encoding.encodeBase64Url(globalThis.crypto.getRandomValues(new Uint8Array(30)))}`

/** API tokens: issue, seed, authenticate and authorize bearer tokens. */
export class Tokens extends Effect.Service<Tokens>()("@mailroom/Tokens", {
  effect: Effect.gen(function*() {
    const repo = yield* ApiTokenRepository
    const sha256 = yield* Sha256
    // a look-up and a decoded row per request were ~12 % of a sign-up's CPU (bench/HISTORY.md)
    const recent = recentlyFound<ApiToken>(TOKEN_RECHECK_MS, MOST_REMEMBERED)

    /** A token's deletion, after which the remembered tokens are forgotten, even if it fails or is interrupted. */
    const forgetting = recent.changing

    const insert = (name: string, secret: string, abilities: ReadonlyArray<Ability>) =>
      Effect.gen(function*() {
        const tokenHash = yield* hashToken(secret, sha256)
        return yield* repo.insert({ uuid: newUuid() as ApiTokenUuid, name, tokenHash, abilities, createdAt: yield* now })
      })

    /** Issues a new token; the secret is returned only here. */
    const create = Effect.fn("Tokens.create")(function*(name: string, abilities: ReadonlyArray<Ability>) {
      if (name.trim() === "") return yield* ValidationError.field("name", "The name field is required.")
      if (abilities.length === 0) return yield* ValidationError.field("abilities", "Give the token at least one ability.")
      const secret = newSecret()
      const token = yield* insert(name.trim(), secret, [...new Set(abilities)])
      return { token, secret } as const
    })

    /** Makes sure a token with exactly this secret and all abilities exists (the API_TOKEN seed). */
    const ensure = Effect.fn("Tokens.ensure")(function*(secret: string, name: string) {
      const existing = yield* repo.findByHash(yield* hashToken(secret, sha256))
      if (Option.isSome(existing) && existing.value.can("all")) return existing.value
      if (Option.isSome(existing)) yield* forgetting(repo.delete(existing.value.uuid))
      return yield* insert(name, secret, ["all"])
    })

    /** The token with this secret, or Unauthenticated; one found within the last TOKEN_RECHECK_MS is not looked up again. */
    const authenticate = Effect.fn("Tokens.authenticate")(function*(secret: string) {
      if (secret === "") return yield* Unauthenticated.default
      const at = yield* Clock.currentTimeMillis
      const known = recent.get(secret, at)
      if (known !== undefined) return known
      const since = recent.generation()
      const token = yield* repo.findByHash(yield* hashToken(secret, sha256))
      if (Option.isNone(token)) return yield* Unauthenticated.default
      recent.remember(secret, token.value, at, since)
      return token.value
    })

    /** Fails with Forbidden unless the token grants the ability. */
    const authorize = (token: ApiToken, ability: Ability): Effect.Effect<void, Forbidden> =>
      token.can(ability) ? Effect.void : Effect.fail(Forbidden.default)

    const list = Effect.fn("Tokens.list")(function*() {
      return yield* repo.list()
    })

    /** One page of the tokens, sorted as asked (ties by id); there are few, so they are paged here. */
    const page = Effect.fn("Tokens.page")(function*(query: TokenQuery) {
      const all = [...(yield* repo.list())]
      const value = (token: ApiToken, field: "created_at" | "name") =>
        field === "name" ? token.name.toLowerCase() : token.createdAt.getTime()
      all.sort((a, b) => {
        for (const { direction, field } of query.sort) {
          const [x, y] = [value(a, field), value(b, field)]
          if (x !== y) return (x < y ? -1 : 1) * (direction === "asc" ? 1 : -1)
        }
        return a.id - b.id
      })
      const start = (query.page - 1) * query.perPage
      return { items: all.slice(start, start + query.perPage), total: all.length } satisfies Page<ApiToken>
    })

    /** Revokes (deletes) a token; NotFound for an unknown uuid. A token may revoke itself. */
    const revoke = Effect.fn("Tokens.revoke")(function*(uuid: string) {
      const parsed = parseUuid(uuid)
      const deleted = Option.isSome(parsed) && (yield* forgetting(repo.delete(parsed.value.toLowerCase() as ApiTokenUuid)))
      if (!deleted) return yield* NotFound.of("Token")
    })

    return { create, ensure, authenticate, authorize, list, page, revoke } as const
  })
}) {}
