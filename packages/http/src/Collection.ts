import { HttpServerRequest } from "@effect/platform"
import type { CollectionSpec, Page } from "@mailroom/core"
import { Effect, Schema } from "effect"

const PageLink = Schema.Struct({ url: Schema.NullOr(Schema.String), label: Schema.String, active: Schema.Boolean })

/** The paginated envelope of a collection of `Item`: data, links and meta (with meta.links). */
export const Collection = <A, I, R>(Item: Schema.Schema<A, I, R>) =>
  Schema.Struct({
    data: Schema.Array(Item),
    links: Schema.Struct({
      first: Schema.String,
      last: Schema.String,
      prev: Schema.NullOr(Schema.String),
      next: Schema.NullOr(Schema.String)
    }),
    meta: Schema.Struct({
      current_page: Schema.Int,
      from: Schema.NullOr(Schema.Int),
      last_page: Schema.Int,
      links: Schema.Array(PageLink),
      path: Schema.String,
      per_page: Schema.Int,
      to: Schema.NullOr(Schema.Int),
      total: Schema.Int
    })
  })

/**
 * A request body schema that reports every invalid field at once, not just the first, and refuses keys it does not
 * know (its OpenAPI schema says `additionalProperties: false`), so a typo is a 422 naming it instead of a no-op.
 */
export const allErrors = <A, I, R>(schema: Schema.Schema<A, I, R>) =>
  schema.annotations({ parseOptions: { errors: "all", onExcessProperty: "error" } })

/** `{ data: Item }`, the envelope of a single resource. */
export const Data = <A, I, R>(Item: Schema.Schema<A, I, R>) => Schema.Struct({ data: Item })

/** The documented query parameters of a collection (validated against its spec by the handler). */
export const collectionParams = (
  spec: CollectionSpec<string, string, string>
): Schema.Schema<Readonly<Record<string, string | undefined>>> =>
  Schema.Struct({
    page: Schema.optional(Schema.String),
    per_page: Schema.optional(Schema.String),
    sort: Schema.optional(Schema.String.annotations({
      description: `Comma-separated; prefix - for descending. One of: ${spec.sorts.join(", ")}. Default ${spec.defaultSort}.`
    })),
    ...(spec.includes.length > 0 ? { include: Schema.optional(Schema.String) } : {}),
    ...Object.fromEntries(spec.filters.map((key) => {
      const values = spec.values?.[key]
      const param = values === undefined ? Schema.String : Schema.String.annotations({ description: `One of: ${values.join(", ")}.` })
      return [`filter[${key}]`, Schema.optional(param)]
    }))
  }) as unknown as Schema.Schema<Readonly<Record<string, string | undefined>>>

type Element = number | "..."

const range = (from: number, to: number): Array<number> => Array.from({ length: to - from + 1 }, (_, i) => from + i)

/** The page numbers shown in meta.links: all up to 13 pages, else a window with `...` gaps (Laravel's UrlWindow). */
export const pageWindow = (current: number, last: number): Array<Element> => {
  const onEachSide = 3
  const window = onEachSide + 4
  if (last < onEachSide * 2 + 8) return range(1, last)
  if (current <= window) return [...range(1, window + onEachSide), "...", last - 1, last]
  if (current > last - window) return [1, 2, "...", ...range(last - (window + onEachSide - 1), last)]
  return [1, 2, "...", ...range(current - onEachSide, current + onEachSide), "...", last - 1, last]
}

/** The first of a comma-separated forwarding header's values, when there is one. */
const forwarded = (value: string | undefined): string | undefined => value?.split(",")[0]?.trim() || undefined

/**
 * The URL the client asked for, as page links show it: the forwarded protocol and host when a proxy gave usable
 * ones (`http`/`https`, a valid host), else the Host header, else localhost. Unusable headers are ignored, not an error.
 */
const requestUrl = (request: HttpServerRequest.HttpServerRequest): URL => {
  const given = forwarded(request.headers["x-forwarded-proto"])?.toLowerCase()
  const proto = given === "https" || given === "http" ? given : "http"
  for (const host of [forwarded(request.headers["x-forwarded-host"]), request.headers["host"], "localhost"]) {
    if (host === undefined || !URL.canParse(`${proto}://${host}`)) continue
    const base = new URL(`${proto}://${host}`)
    // a host header carries a host and a port only
    if (base.pathname !== "/" || base.search !== "" || base.username !== "" || base.password !== "") continue
    if (URL.canParse(request.url, base)) return new URL(request.url, base)
  }
  return new URL("http://localhost/")
}

/** Wraps a page of resources in the collection envelope; page links keep the request's other query parameters. */
export const toCollection = <A, B>(page: Page<A>, query: { readonly page: number; readonly perPage: number }, toItem: (a: A) => B) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    const url = requestUrl(request)
    const path = `${url.origin}${url.pathname}`
    const pageUrl = (n: number) => {
      const params = new URLSearchParams(url.search)
      params.set("page", String(n))
      return `${path}?${params.toString()}`
    }
    const lastPage = Math.max(1, Math.ceil(page.total / query.perPage))
    const current = query.page
    const from = page.items.length === 0 ? null : (current - 1) * query.perPage + 1
    const prev = current > 1 ? pageUrl(current - 1) : null
    const next = current < lastPage ? pageUrl(current + 1) : null
    return {
      data: page.items.map(toItem),
      links: { first: pageUrl(1), last: pageUrl(lastPage), prev, next },
      meta: {
        current_page: current,
        from,
        last_page: lastPage,
        links: [
          { url: prev, label: "&laquo; Previous", active: false },
          ...pageWindow(current, lastPage).map((element) =>
            element === "..."
              ? { url: null, label: "...", active: false }
              : { url: pageUrl(element), label: String(element), active: element === current }
          ),
          { url: next, label: "Next &raquo;", active: false }
        ],
        path,
        per_page: query.perPage,
        to: from === null ? null : from + page.items.length - 1,
        total: page.total
      }
    }
  })
