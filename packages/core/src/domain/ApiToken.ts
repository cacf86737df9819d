import { Schema } from "effect"
import { ApiTokenId, ApiTokenUuid } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

/**
 * What a token may do: `all` everything; `read` every GET; `write` every change (including sends);
 * `send` only campaign send and send-test.
 */
export const Ability = Schema.Literal("all", "read", "write", "send")
/** @since 0.1.0 */
export type Ability = typeof Ability.Type

/** An API token. Only the SHA-256 hash of the secret is kept; the secret is shown once, at creation. */
export class ApiToken extends Schema.Class<ApiToken>("ApiToken")({
  id: ApiTokenId,
  uuid: ApiTokenUuid,
  name: Schema.String,
  tokenHash: Schema.String,
  abilities: Schema.Array(Ability),
  createdAt: Timestamp
}) {
  /** True when this token grants the ability (`all` grants everything, `write` includes `send`). */
  can(ability: Ability): boolean {
    return this.abilities.includes("all") || this.abilities.includes(ability) ||
      (ability === "send" && this.abilities.includes("write"))
  }
}
