import { SqlClient } from "@effect/sql"
import { postgresClient, randomSchemaName, withSearchPath } from "@mailroom/postgres"
import { Effect, ManagedRuntime } from "effect"

/** The Postgres the tests use. */
export const PG_URL = process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

/** A Postgres schema of its own for processes under test. */
export interface PostgresSchema {
  /** Its name. */
  readonly schema: string
  /** A database URL whose connections use the schema, through `base` (PG_URL, or a proxy in front of it). */
  readonly urlVia: (base?: string) => string
  /** Runs SQL text on PG_URL (tables named with the schema). */
  readonly query: <A extends object = Record<string, unknown>>(statement: string) => Promise<ReadonlyArray<A>>
  /** Drops the schema with everything in it, and closes the connection. */
  readonly drop: () => Promise<void>
}

/** Creates a schema named `<prefix>_<16 hex digits>` on PG_URL. */
export const postgresSchema = async (prefix: string): Promise<PostgresSchema> => {
  const schema = randomSchemaName(prefix)
  const db = ManagedRuntime.make(postgresClient({ url: PG_URL, maxConnections: 2 }))
  const query = <A extends object = Record<string, unknown>>(statement: string) =>
    db.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A>(statement)))
  await query(`CREATE SCHEMA ${schema}`).catch(async (error) => {
    await db.dispose()
    throw error
  })
  return {
    schema,
    urlVia: (base = PG_URL) => withSearchPath(base, schema),
    query,
    drop: async () => {
      await query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch((error) => console.log(`drop schema ${schema} failed`, error))
      await db.dispose()
    }
  }
}
