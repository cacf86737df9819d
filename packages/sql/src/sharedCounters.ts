import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Duration, Effect, Layer, Schedule } from "effect"
import { questionMarks } from "./valuesInsert.js"

/**
 * Counter columns of rows that every writer of a list shares (a list's per-status counts, a tag's subscriber count),
 * and the table their changes are recorded in on Postgres: `changes` has an id, `key` (the counted row's id) and, per
 * counter, a column of the same name as `columns`' key.
 */
export interface SharedCounters {
  readonly table: string
  readonly changes: string
  readonly key: string
  /** change column → counter column */
  readonly columns: Readonly<Record<string, string>>
}

/** How often a process that records changes adds them to their rows (Postgres). */
const FOLD_EVERY = Duration.seconds(1)

/** Folds after the last change a process recorded (a transaction may commit a little after it recorded). */
const FOLDS_AFTER_CHANGE = 3

/** How often (in folds' turns) an idle process still folds: changes a process left when it stopped before folding them. */
const SWEEP_EVERY = 30

/** Per client: the turns of its folder since the process last recorded a change. */
const turnsSinceChange = new WeakMap<SqlClient.SqlClient, { turns: number }>()

/** Tells this process's folder that a change was recorded through `sql` (Postgres), so its next turns fold. */
export const noteCountChange = (sql: SqlClient.SqlClient): void => {
  const noted = turnsSinceChange.get(sql)
  if (noted !== undefined) noted.turns = 0
}

/**
 * Whether a folder's turn folds: each turn up to `FOLDS_AFTER_CHANGE` after the process recorded a change, and every
 * `sweepEvery` turns otherwise (an idle process then runs no statement in between).
 */
export const foldDue = (turnsSinceChange: number, turnsSinceFold: number, sweepEvery: number = SWEEP_EVERY): boolean =>
  turnsSinceChange <= FOLDS_AFTER_CHANGE || turnsSinceFold >= sweepEvery

/**
 * The SQL expression of the sum of some counters of the row aliased `alias`: the counters plus the changes recorded
 * and not folded yet.
 */
export const countExpression = (counters: SharedCounters, alias: string, changeColumns: ReadonlyArray<string>): string => {
  const stored = changeColumns.map((column) => `${alias}.${counters.columns[column]}`).join(" + ")
  const changed = changeColumns.map((column) => `c.${column}`).join(" + ")
  return `CAST(${stored} + (SELECT COALESCE(SUM(${changed}), 0) FROM ${counters.changes} c WHERE c.${counters.key} = ${alias}.id) AS INTEGER)`
}

/** The `SET` clause moving a row's counters by `by` (change column, amount): SQLite's update of shared counters. */
const counterChanges = (counters: SharedCounters, by: ReadonlyArray<readonly [string, number]>): string =>
  by.map(([column, n]) => `${counters.columns[column]} = ${counters.columns[column]} + ${n}`).join(", ")

/**
 * Moves counters (row id → change column → by how much). Postgres records the changes in one insert: updating the
 * shared rows would hold them until the commit, and every writer of the list would queue behind. SQLite has one
 * writer at a time, so nobody waits for a row: they are updated, one statement for the rows moved by the same amounts.
 */
export const recordCountChanges = (
  sql: SqlClient.SqlClient,
  counters: SharedCounters,
  changes: ReadonlyMap<number, ReadonlyMap<string, number>>
): Effect.Effect<void, SqlError> => {
  const moved = movesOf(changes)
  if (moved.length === 0) return Effect.void
  return sql.onDialectOrElse({
    pg: () =>
      sql`INSERT INTO ${sql(counters.changes)} ${
        sql.insert(moved.map(([id, by]) => ({
          ...Object.fromEntries(Object.keys(counters.columns).map((column) => [column, 0])),
          ...Object.fromEntries(by),
          [counters.key]: id
        })))
      }`.pipe(Effect.tap(() => noteCountChange(sql)), Effect.asVoid),
    orElse: () =>
      Effect.forEach(counterUpdates(counters, moved), ([set, ids]) =>
        sql`UPDATE ${sql(counters.table)} SET ${sql.literal(set)} WHERE id IN ${sql.in(ids)}`, { discard: true })
  })
}

/** The rows' non-zero moves (row id → change column → by how much), in row id order. */
const movesOf = (changes: ReadonlyMap<number, ReadonlyMap<string, number>>) =>
  [...changes]
    .map(([id, by]) => [id, [...by].filter(([, n]) => n !== 0)] as const)
    .filter(([, by]) => by.length > 0)
    .sort(([a], [b]) => a - b)

/** SQLite's updates of moved counters: a `SET` clause and the ids of the rows it moves (rows moved alike share one). */
const counterUpdates = (counters: SharedCounters, moved: ReturnType<typeof movesOf>): Map<string, Array<number>> => {
  const updates = new Map<string, Array<number>>()
  for (const [id, by] of moved) {
    const set = counterChanges(counters, by)
    const ids = updates.get(set)
    if (ids === undefined) updates.set(set, [id])
    else ids.push(id)
  }
  return updates
}

/** `recordCountChanges` on SQLite as statement texts (`?` for the ids) and their ids, for a `SyncWriter`. */
export const counterStatements = (
  counters: SharedCounters,
  changes: ReadonlyMap<number, ReadonlyMap<string, number>>
): Array<readonly [string, ReadonlyArray<number>]> =>
  [...counterUpdates(counters, movesOf(changes))].map(([set, ids]) =>
    [`UPDATE ${counters.table} SET ${set} WHERE id IN (${questionMarks(ids.length)})`, ids] as const)

/**
 * Adds the recorded changes to their rows in one statement (what it deletes is what it adds, so a change committed
 * meanwhile waits for the next fold, and two folds never add one change twice). The rows are locked in id order
 * first: two processes' folds that updated the same rows in different orders would deadlock. Postgres only.
 */
export const foldCountChanges = (sql: SqlClient.SqlClient, counters: SharedCounters): Effect.Effect<void, SqlError> => {
  const { changes, key, table } = counters
  const columns = Object.keys(counters.columns)
  return sql.unsafe(`WITH moved AS (DELETE FROM ${changes} RETURNING ${key}, ${columns.join(", ")}),
      sums AS (SELECT ${key}, ${columns.map((c) => `SUM(${c}) AS ${c}`).join(", ")} FROM moved GROUP BY ${key}),
      locked AS (SELECT t.id FROM ${table} t JOIN sums ON sums.${key} = t.id ORDER BY t.id FOR UPDATE OF t)
    UPDATE ${table} SET ${columns.map((c) => `${counters.columns[c]} = ${counters.columns[c]} + sums.${c}`).join(", ")}
    FROM sums WHERE ${table}.id = sums.${key} AND ${table}.id IN (SELECT id FROM locked)`).pipe(Effect.asVoid)
}

/** What a row's counters are read from: its table with each counter read as `countExpression`, under the table's name. */
export const countedSource = (sql: SqlClient.SqlClient, counters: SharedCounters, as: Readonly<Record<string, ReadonlyArray<string>>>) =>
  sql`(SELECT ${sql.literal(counters.table)}.*, ${
    sql.literal(Object.entries(as).map(([name, columns]) => `${countExpression(counters, counters.table, columns)} AS ${name}`).join(", "))
  } FROM ${sql.literal(counters.table)}) AS ${sql.literal(counters.table)}`

/**
 * On Postgres, folds the recorded changes of `counters` into their rows: every second while this process records
 * changes (reading a count then adds up a few seconds' changes at most), and every 30 s when it records none (the
 * changes of a process that stopped before folding its own). A failed fold (the database away) is tried again at the
 * next turn; counts read meanwhile stay exact.
 */
export const countFolder = (all: ReadonlyArray<SharedCounters>): Layer.Layer<never, never, SqlClient.SqlClient> =>
  Layer.scopedDiscard(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      if (!sql.onDialectOrElse({ pg: () => true, orElse: () => false })) return
      const since = { turns: Number.POSITIVE_INFINITY }
      turnsSinceChange.set(sql, since)
      // the first turn folds: what was left before this process started
      let turnsSinceFold = SWEEP_EVERY
      const turn = Effect.suspend(() => {
        const due = foldDue(since.turns, ++turnsSinceFold)
        since.turns++
        if (!due) return Effect.void
        turnsSinceFold = 0
        return Effect.forEach(all, (counters) => foldCountChanges(sql, counters), { discard: true })
      })
      yield* turn.pipe(Effect.ignore, Effect.repeat(Schedule.spaced(FOLD_EVERY)), Effect.forkScoped)
    })
  )
