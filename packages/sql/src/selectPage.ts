import type { SqlClient, Statement } from "@effect/sql"
import type { CollectionQuery, Page, SortKey } from "@mailroom/core"
import { Effect, type Schema } from "effect"
import { rowsDecoder } from "./rowsDecoder.js"

/** How one collection sorts and filters in SQL: a SQL expression per sort key, a condition per filter. */
export interface SqlCollection<S extends string, F extends string> {
  readonly table: string
  /** What rows are read from instead of the table (a subquery aliased as the table). */
  readonly source?: Statement.Fragment
  readonly sorts: { readonly [K in S]: string }
  /** Sort keys whose column may be NULL (they get an explicit NULLS FIRST/LAST; the others can walk an index). */
  readonly nullable?: ReadonlyArray<S>
  readonly filters: { readonly [K in F]: (value: string) => Statement.Fragment }
  /** A condition every row must meet whatever the filters (e.g. belonging to one list). */
  readonly scope?: Statement.Fragment
}

/** `LIKE` pattern for a case-insensitive substring match (`%` and `_` in the value match literally). */
export const containsPattern = (value: string): string => `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * An ORDER BY list for the sort keys (ties broken by id in the last key's direction; nullable keys get nulls first
 * ascending, last descending, like the memory store).
 */
export const orderClause = <S extends string>(
  sorts: { readonly [K in S]: string },
  nullable: ReadonlyArray<S>,
  sort: ReadonlyArray<SortKey<S>>
): string => {
  const last = sort[sort.length - 1]
  return [
    ...sort.map(({ direction, field }) => {
      const nulls = nullable.includes(field) ? (direction === "asc" ? " NULLS FIRST" : " NULLS LAST") : ""
      return `${sorts[field]} ${direction === "asc" ? "ASC" : "DESC"}${nulls}`
    }),
    `id ${last?.direction === "desc" ? "DESC" : "ASC"}`
  ].join(", ")
}

/**
 * One page of `source` (a table, or a subquery with an alias) where every condition holds, in `order` (an ORDER BY
 * list), and how many rows match in all; rows as the driver returns them.
 */
export const selectRows = (
  sql: SqlClient.SqlClient,
  source: Statement.Fragment,
  conditions: ReadonlyArray<Statement.Fragment>,
  order: string,
  page: { readonly page: number; readonly perPage: number }
): Effect.Effect<{ readonly rows: ReadonlyArray<unknown>; readonly total: number }, unknown> =>
  Effect.gen(function*() {
    const where = conditions.length === 0 ? sql`` : sql`WHERE ${sql.and(conditions)}`
    const [rows, counted] = yield* Effect.all([
      sql`SELECT * FROM ${source} ${where} ORDER BY ${sql.literal(order)} LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
      sql<{ readonly total: number }>`SELECT CAST(count(*) AS INTEGER) AS total FROM ${source} ${where}`
    ])
    return { rows, total: Number(counted[0]?.total ?? 0) }
  })

/**
 * Runs a collection query: filters, sorts (ties broken by id in the last key's direction; nulls first ascending,
 * last descending), one page of rows decoded with `Row`, and the total count.
 */
export const selectPage = <S extends string, F extends string, A, I>(
  sql: SqlClient.SqlClient,
  collection: SqlCollection<S, F>,
  query: CollectionQuery<S, F, string>,
  Row: Schema.Schema<A, I>
): Effect.Effect<Page<A>> =>
  Effect.gen(function*() {
    const conditions = [
      ...(collection.scope === undefined ? [] : [collection.scope]),
      ...(Object.entries(query.filters) as Array<[F, string]>).map(([key, value]) => collection.filters[key](value))
    ]
    const order = orderClause(collection.sorts, collection.nullable ?? [], query.sort)
    const { rows, total } = yield* selectRows(sql, collection.source ?? sql`${sql(collection.table)}`, conditions, order, query)
    return { items: yield* rowsDecoder(Row)(rows), total }
  }).pipe(Effect.orDie)
