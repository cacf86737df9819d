import type { CollectionQuery, Page } from "../../domain/CollectionQuery.js"

/** A value a row sorts by; text sorts case-insensitively, null sorts first ascending and last descending. */
export type SortValue = string | number | boolean | Date | null

/** How rows of one collection sort and filter in memory, mirroring the SQL repositories. */
export interface MemoryCollection<A, S extends string, F extends string> {
  readonly id: (row: A) => number
  readonly sorts: { readonly [K in S]: (row: A) => SortValue }
  readonly filters: { readonly [K in F]: (row: A, value: string) => boolean }
}

const normalize = (value: SortValue): string | number | null =>
  value === null ? null : typeof value === "string" ? value.toLowerCase() : value instanceof Date ? value.getTime() : Number(value)

const compare = (a: string | number | null, b: string | number | null): number =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1

/** True when `value` occurs in `text`, ignoring case (the `filter[search]` rule). */
export const containsIgnoringCase = (text: string | null, value: string): boolean =>
  text !== null && text.toLowerCase().includes(value.toLowerCase())

/** Filters, sorts (ties broken by id in the last key's direction) and pages rows as the SQL stores do. */
export const listPage = <A, S extends string, F extends string>(
  rows: Iterable<A>,
  query: CollectionQuery<S, F, string>,
  collection: MemoryCollection<A, S, F>
): Page<A> => {
  const filters = Object.entries(query.filters) as Array<[F, string]>
  const matching = [...rows].filter((row) => filters.every(([key, value]) => collection.filters[key](row, value)))
  const tieDirection = query.sort.length > 0 && query.sort[query.sort.length - 1]!.direction === "desc" ? -1 : 1
  matching.sort((a, b) => {
    for (const { field, direction } of query.sort) {
      const order = compare(normalize(collection.sorts[field](a)), normalize(collection.sorts[field](b)))
      if (order !== 0) return direction === "asc" ? order : -order
    }
    return (collection.id(a) - collection.id(b)) * tieDirection
  })
  const start = (query.page - 1) * query.perPage
  return { items: matching.slice(start, start + query.perPage), total: matching.length }
}
