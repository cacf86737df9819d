import { Effect } from "effect"
import { InvalidQuery } from "../errors/InvalidQuery.js"

/** Page size used when `per_page` is absent or invalid. */
export const DEFAULT_PER_PAGE = 15
/** Largest page size a client may ask for; larger values are capped. */
export const MAX_PER_PAGE = 100

/** One sort key: a field name and a direction. */
export interface SortKey<S extends string> {
  readonly field: S
  readonly direction: "asc" | "desc"
}

/** A parsed, validated collection request: paging, sorts, filters and includes. */
export interface CollectionQuery<S extends string = string, F extends string = string, I extends string = never> {
  readonly page: number
  readonly perPage: number
  readonly sort: ReadonlyArray<SortKey<S>>
  readonly filters: Readonly<Partial<Record<F, string>>>
  readonly includes: ReadonlyArray<I>
}

/** What a collection allows: its sort fields (and default), filter keys and includes. */
export interface CollectionSpec<S extends string, F extends string, I extends string = never> {
  readonly sorts: ReadonlyArray<S>
  readonly defaultSort: string
  readonly filters: ReadonlyArray<F>
  readonly includes: ReadonlyArray<I>
  /** The only values some filters take (compared trimmed and lower-cased; a blank value is no filter). */
  readonly values?: Readonly<Partial<Record<F, ReadonlyArray<string>>>>
}

/** One page of a collection and the total number of matching items. */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly total: number
}

/** Raw query parameters as they arrive: a value or repeated values per key. */
export type RawParams = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** Declares a collection's allowed sorts, filters and includes. */
export const collectionSpec = <const S extends string, const F extends string, const I extends string = never>(
  spec: CollectionSpec<S, F, I>
): CollectionSpec<S, F, I> => spec

const first = (value: string | ReadonlyArray<string> | undefined): string | undefined =>
  typeof value === "string" ? value : value?.[0]

/** Largest page number honoured; larger ones ask for a page past the end anyway. */
const MAX_PAGE = 1_000_000_000

const positiveInt = (text: string | undefined, max: number): number | undefined => {
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) return undefined
  const n = Number(text)
  return n >= 1 ? Math.min(n, max) : undefined
}

const list = (items: ReadonlyArray<string>) => items.map((item) => `\`${item}\``).join(", ")

const splitSort = (text: string): Array<string> =>
  text.split(",").map((s) => s.trim()).filter((s) => s.length > 0)

const parseSort = <S extends string>(spec: CollectionSpec<S, string, string>, text: string) => {
  const keys = splitSort(text)
  const unknown = keys.filter((key) => !spec.sorts.includes(key.replace(/^-/, "") as S))
  if (unknown.length > 0) {
    return Effect.fail(
      new InvalidQuery({
        message: `Requested sort(s) ${list(unknown)} is not allowed. Allowed sort(s) are ${list(spec.sorts)}.`
      })
    )
  }
  return Effect.succeed(
    keys.map((key): SortKey<S> =>
      key.startsWith("-")
        ? { field: key.slice(1) as S, direction: "desc" }
        : { field: key as S, direction: "asc" }
    )
  )
}

const filterKey = /^filter\[(.+)\]$/

/**
 * Parses raw query parameters against a collection's spec.
 * Unknown sort, filter or include keys, and values a filter does not take, fail with InvalidQuery; bad paging values
 * fall back to defaults (`per_page` above 100 is capped, below 1 or non-numeric is 15; `page` below 1 or non-numeric is 1).
 */
export const parseCollectionQuery = <S extends string, F extends string, I extends string>(
  spec: CollectionSpec<S, F, I>,
  params: RawParams
): Effect.Effect<CollectionQuery<S, F, I>, InvalidQuery> =>
  Effect.gen(function*() {
    const filters: Partial<Record<F, string>> = {}
    const unknownFilters: Array<string> = []
    for (const [key, value] of Object.entries(params)) {
      const match = filterKey.exec(key)
      if (match === null) continue
      const name = match[1]!
      if (spec.filters.includes(name as F)) {
        const text = first(value)
        if (text !== undefined) filters[name as F] = text
      } else {
        unknownFilters.push(name)
      }
    }
    const withNul = Object.keys(filters).filter((name) => filters[name as F]!.includes("\u0000"))
    if (withNul.length > 0) {
      return yield* new InvalidQuery({ message: `The filter(s) ${list(withNul)} must not contain NUL characters.` })
    }
    if (unknownFilters.length > 0) {
      return yield* new InvalidQuery({
        message: `Requested filter(s) ${list(unknownFilters)} are not allowed. Allowed filter(s) are ${
          list(spec.filters)
        }.`
      })
    }
    for (const [name, allowed] of Object.entries(spec.values ?? {}) as Array<[F, ReadonlyArray<string>]>) {
      const value = filters[name]?.trim().toLowerCase()
      if (value === undefined) continue
      if (value === "") delete filters[name]
      else if (allowed.includes(value)) filters[name] = value
      else {
        return yield* new InvalidQuery({
          message: `Requested filter[${name}] value ${list([filters[name]!.trim().slice(0, 100)])} is not allowed. Allowed value(s) are ${
            list(allowed)
          }.`
        })
      }
    }
    const includeText = first(params["include"])
    const includes = includeText === undefined ? [] : splitSort(includeText)
    const unknownIncludes = includes.filter((name) => !spec.includes.includes(name as I))
    if (unknownIncludes.length > 0) {
      return yield* new InvalidQuery({
        message: `Requested include(s) ${list(unknownIncludes)} are not allowed. Allowed include(s) are ${
          list(spec.includes)
        }.`
      })
    }
    const sortText = first(params["sort"])
    const sort = yield* parseSort(spec, sortText === undefined || sortText.trim() === "" ? spec.defaultSort : sortText)
    const perPage = positiveInt(first(params["per_page"]), MAX_PER_PAGE) ?? DEFAULT_PER_PAGE
    return { page: positiveInt(first(params["page"]), MAX_PAGE) ?? 1, perPage, sort, filters, includes: includes as Array<I> }
  })

/** Builds a query in code (library use), with the spec's default sort unless one is given. */
export const makeCollectionQuery = <S extends string, F extends string, I extends string>(
  spec: CollectionSpec<S, F, I>,
  options: {
    readonly page?: number
    readonly perPage?: number
    readonly sort?: string
    readonly filters?: Partial<Record<F, string>>
    readonly includes?: ReadonlyArray<I>
  } = {}
): Effect.Effect<CollectionQuery<S, F, I>, InvalidQuery> =>
  parseCollectionQuery(spec, {
    ...(options.page === undefined ? {} : { page: String(options.page) }),
    ...(options.perPage === undefined ? {} : { per_page: String(options.perPage) }),
    ...(options.sort === undefined ? {} : { sort: options.sort }),
    ...(options.includes === undefined ? {} : { include: options.includes.join(",") }),
    ...Object.fromEntries(Object.entries(options.filters ?? {}).map(([key, value]) => [`filter[${key}]`, value as string]))
  })
