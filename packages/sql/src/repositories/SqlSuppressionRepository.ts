import { SqlClient, SqlSchema } from "@effect/sql"
import { Suppression, SuppressionRepository, SuppressionUuid } from "@mailroom/core"
import { Effect, Layer, Option, Schema } from "effect"
import { deleteById } from "../deleteById.js"
import { containsPattern, selectPage } from "../selectPage.js"

const SuppressionRow = Schema.Struct({ ...Suppression.fields })

/** SuppressionRepository over SqlClient; the unique email column makes concurrent inserts safe. */
export const SqlSuppressionRepository = Layer.effect(
  SuppressionRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const insert = SqlSchema.findOne({
      Request: SuppressionRow.omit("id"),
      Result: Suppression,
      execute: (row) => sql`INSERT INTO suppressions ${sql.insert(row)} ON CONFLICT (email) DO NOTHING RETURNING *`
    })
    const findByEmail = SqlSchema.findOne({
      Request: Schema.String,
      Result: Suppression,
      execute: (email) => sql`SELECT * FROM suppressions WHERE email = ${email}`
    })
    const findByUuid = SqlSchema.findOne({
      Request: SuppressionUuid,
      Result: Suppression,
      execute: (uuid) => sql`SELECT * FROM suppressions WHERE uuid = ${uuid}`
    })
    return SuppressionRepository.of({
      insertOrGet: (suppression) =>
        insert(suppression).pipe(
          Effect.flatMap(Option.match({
            onSome: (created) => Effect.succeed({ suppression: created, created: true }),
            onNone: () =>
              Effect.map(findByEmail(suppression.email), (existing) => ({
                suppression: Option.getOrThrow(existing),
                created: false
              }))
          })),
          Effect.orDie
        ),
      findByUuid: (uuid) => findByUuid(uuid).pipe(Effect.orDie),
      findByEmail: (email) => findByEmail(email).pipe(Effect.orDie),
      suppressedAmong: (emails) =>
        emails.length === 0
          ? Effect.succeed(new Set<string>())
          : sql<{ readonly email: string }>`SELECT email FROM suppressions WHERE email IN ${sql.in(emails)}`.pipe(
            Effect.map((rows) => new Set(rows.map((row) => row.email))),
            Effect.orDie
          ),
      delete: (id) => deleteById(sql, "suppressions", id),
      list: (query) =>
        selectPage(sql, {
          table: "suppressions",
          sorts: { created_at: "created_at" },
          filters: {
            search: (value) => sql`email LIKE ${containsPattern(value)} ESCAPE '\\'`,
            reason: (value) => sql`reason = ${value}`
          }
        }, query, Suppression)
    })
  })
)
