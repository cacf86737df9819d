import type { SqlError } from "@effect/sql/SqlError"
import { Context, type Effect } from "effect"

/** Statements run back to back inside one synchronous call: texts with `?` placeholders, values bound in order. */
export interface SyncStatements {
  /** Runs a statement; its first row (a `RETURNING` or a `SELECT`), fields named as the client names them, if any. */
  readonly get: (sql: string, params: ReadonlyArray<unknown>) => Record<string, unknown> | undefined
  /** Runs a statement; every row it returns, fields named as the client names them. */
  readonly all: (sql: string, params: ReadonlyArray<unknown>) => Array<Record<string, unknown>>
  /** Runs a statement for what it changes. */
  readonly run: (sql: string, params: ReadonlyArray<unknown>) => void
}

/**
 * The writing connection of a store whose driver is synchronous (SQLite), for a hot write of a few statements:
 * `write` runs them as one call, in the fiber's open transaction or in one of their own, instead of an Effect, a span
 * and a prepared-statement look-up per statement (a sign-up's three statements took ~350 µs through @effect/sql and
 * ~130 µs so; bench/HISTORY.md). Stores without it run the same writes through their `SqlClient`.
 */
export class SyncWriter extends Context.Tag("@mailroom/sql/SyncWriter")<SyncWriter, {
  readonly write: <A>(f: (statements: SyncStatements) => A) => Effect.Effect<A, SqlError>
}>() {}
