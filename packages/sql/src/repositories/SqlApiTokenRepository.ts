import { SqlClient, SqlSchema } from "@effect/sql"
import { Ability, ApiToken, ApiTokenRepository } from "@mailroom/core"
import { Effect, Layer, Schema } from "effect"
import { deleteById } from "../deleteById.js"

/** An api_tokens row: abilities stored as a JSON array. */
const ApiTokenRow = Schema.Struct({ ...ApiToken.fields, abilities: Schema.parseJson(Schema.Array(Ability)) })

const FromRow = Schema.transform(ApiTokenRow, Schema.typeSchema(ApiToken), {
  strict: false,
  decode: (row) => new ApiToken(row, true),
  encode: (token) => token
})

/** ApiTokenRepository over SqlClient. */
export const SqlApiTokenRepository = Layer.effect(
  ApiTokenRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const insert = SqlSchema.single({
      Request: ApiTokenRow.omit("id"),
      Result: FromRow,
      execute: (row) => sql`INSERT INTO api_tokens ${sql.insert(row)} RETURNING *`
    })
    const findByHash = SqlSchema.findOne({
      Request: Schema.String,
      Result: FromRow,
      execute: (hash) => sql`SELECT * FROM api_tokens WHERE token_hash = ${hash}`
    })
    const list = SqlSchema.findAll({
      Request: Schema.Void,
      Result: FromRow,
      execute: () => sql`SELECT * FROM api_tokens ORDER BY id`
    })
    return ApiTokenRepository.of({
      insert: (token) => insert(token).pipe(Effect.orDie),
      findByHash: (hash) => findByHash(hash).pipe(Effect.orDie),
      list: () => list(undefined).pipe(Effect.orDie),
      delete: (uuid) => deleteById(sql, "api_tokens", uuid, "uuid")
    })
  })
)
