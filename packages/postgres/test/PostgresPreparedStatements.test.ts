import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { postgresClient, randomSchemaName, withSearchPath } from "@mailroom/postgres"
import { Effect, Exit, Layer } from "effect"

const url = process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

/** A one-connection client in a fresh schema (dropped afterwards), so every statement runs in the same session. */
const inSchema = <A, E>(preparedStatements: boolean, body: (sql: SqlClient.SqlClient) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const schema = randomSchemaName("mailroom_prep")
    const admin = yield* SqlClient.SqlClient.pipe(Effect.provide(yield* Layer.build(postgresClient({ url, maxConnections: 1 }))))
    yield* Effect.acquireRelease(admin.unsafe(`CREATE SCHEMA ${schema}`), () => Effect.orDie(admin.unsafe(`DROP SCHEMA ${schema} CASCADE`)))
    const client = postgresClient({ url: withSearchPath(url, schema), maxConnections: 1, preparedStatements })
    const sql = yield* SqlClient.SqlClient.pipe(Effect.provide(yield* Layer.build(client)))
    yield* sql`CREATE TABLE probe (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`
    yield* sql`INSERT INTO probe (id, name) VALUES (1, 'one'), (2, 'two')`
    return yield* body(sql)
  }).pipe(Effect.scoped)

/** The prepared statements of the client's session. */
const prepared = (sql: SqlClient.SqlClient) =>
  sql<{ readonly name: string; readonly statement: string }>`SELECT name, statement FROM pg_prepared_statements ORDER BY name`

describe("postgres prepared statements", () => {
  it.effect("runs a parameterized statement as one named prepared statement per session, reused by later calls", () =>
    inSchema(true, (sql) =>
      Effect.gen(function*() {
        for (const id of [1, 2, 1]) yield* sql`SELECT name FROM probe WHERE id = ${id}`
        const statements = (yield* prepared(sql)).filter((row) => row.statement.includes("FROM probe WHERE id"))
        expect(statements).toHaveLength(1)
        expect(statements[0]!.name).toMatch(/^mailroom_\d+$/)
        // planned with each call's values: a generic plan made the delivery's claims much slower
        expect(yield* sql<{ readonly planCacheMode: string }>`SHOW plan_cache_mode`).toEqual([{ planCacheMode: "force_custom_plan" }])
      })))

  it.effect("prepares nothing when turned off (a pooler in transaction mode)", () =>
    inSchema(false, (sql) =>
      Effect.gen(function*() {
        yield* sql`SELECT name FROM probe WHERE id = ${1}`
        expect(yield* prepared(sql)).toEqual([])
      })))

  it.effect("a statement whose table changed shape since it was prepared (a newer process migrated) fails once, then runs on the new shape", () =>
    inSchema(true, (sql) =>
      Effect.gen(function*() {
        const read = (id: number) => sql<{ readonly id: number; readonly name: string }>`SELECT * FROM probe WHERE id = ${id}`
        expect(yield* read(1)).toEqual([{ id: 1, name: "one" }])
        yield* sql.unsafe("ALTER TABLE probe ADD COLUMN extra TEXT")
        const refused = yield* Effect.exit(read(1))
        expect(Exit.isFailure(refused)).toBe(true)
        expect(yield* read(2)).toEqual([{ id: 2, name: "two", extra: null }])
      })))
})
