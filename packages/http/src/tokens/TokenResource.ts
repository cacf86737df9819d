import { Ability, type ApiToken, formatTimestamp } from "@mailroom/core"
import { Schema } from "effect"

/** An API token as the API returns it: never its secret, except `token` in the answer that created it. */
export const TokenResource = Schema.Struct({
  uuid: Schema.UUID,
  name: Schema.String,
  abilities: Schema.Array(Ability),
  created_at: Schema.String
}).annotations({ identifier: "Token" })

/** A newly created token: its fields and its secret, shown this once. */
export const CreatedTokenResource = Schema.Struct({
  ...TokenResource.fields,
  token: Schema.String.annotations({ description: "The bearer secret: shown only in this answer, stored only as a hash." })
}).annotations({ identifier: "CreatedToken" })

/** The token of the request (who am I). */
export const CurrentTokenResource = Schema.Struct({
  uuid: Schema.UUID,
  name: Schema.String,
  abilities: Schema.Array(Ability)
}).annotations({ identifier: "CurrentToken" })

/** Renders a token. */
export const toTokenResource = (token: ApiToken): typeof TokenResource.Type => ({
  uuid: token.uuid,
  name: token.name,
  abilities: token.abilities,
  created_at: formatTimestamp(token.createdAt)
})
