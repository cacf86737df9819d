import { Context, type Effect, type Option } from "effect"
import type { ApiToken } from "../domain/ApiToken.js"
import type { ApiTokenUuid } from "../domain/Ids.js"

/** An API token before the store has given it an id. */
export type NewApiToken = Omit<ApiToken, "id" | "can">

/** Storage of API tokens, looked up by the SHA-256 hash of their secret. */
export class ApiTokenRepository extends Context.Tag("@mailroom/ApiTokenRepository")<ApiTokenRepository, {
  readonly insert: (token: NewApiToken) => Effect.Effect<ApiToken>
  readonly findByHash: (tokenHash: string) => Effect.Effect<Option.Option<ApiToken>>
  readonly list: () => Effect.Effect<ReadonlyArray<ApiToken>>
  readonly delete: (uuid: ApiTokenUuid) => Effect.Effect<boolean>
}>() {}
