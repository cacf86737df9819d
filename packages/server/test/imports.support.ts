/** Shared steps of the subscriber import tests: lists, imports, running them, and reading back what a client sees. */
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { expectStatus, unique } from "./expectations.js"
import { type Reply, TestServer } from "./TestServer.js"

/** Every field of an import resource, sorted. */
export const IMPORT_FIELDS = [
  "id",
  "uuid",
  "subscribers_csv",
  "status",
  "email_list_id",
  "subscribe_unsubscribed",
  "unsubscribe_others",
  "replace_tags",
  "imported_subscribers_count",
  "error_count",
  "failure_reason",
  "started_at",
  "finished_at",
  "created_at",
  "updated_at"
].sort()

/** The refusal reason of an invalid address. */
export const INVALID = "The email is not a valid address."

/** An email list as created through the API. */
export interface TestList {
  readonly id: number
  readonly uuid: string
}

/** Creates an email list (extra fields such as `requires_confirmation` are passed through). */
export const createList = (extra: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const { call } = yield* TestServer
    const r = yield* call("POST", "/api/email-lists", {
      body: { name: unique("Imports "), default_from_email: "news@example.com", ...extra }
    })
    expectStatus(r, 201)
    return { id: r.body.data.id as number, uuid: r.body.data.uuid as string }
  })

/** POST /api/subscriber-imports with `body` as given. */
export const postImport = (body: unknown) =>
  Effect.flatMap(TestServer, ({ call }) => call("POST", "/api/subscriber-imports", { body }))

/** Creates a draft import of `csv` into `list` (flags default to false); its resource. */
export const createImport = (list: TestList, csv: string, flags: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const r = yield* postImport({
      subscribers_csv: csv,
      email_list_id: list.id,
      subscribe_unsubscribed: false,
      unsubscribe_others: false,
      ...flags
    })
    expectStatus(r, 200)
    return r.body.data
  })

/** GET /api/subscriber-imports/{ref}. */
export const getImport = (ref: string | number) =>
  Effect.flatMap(TestServer, ({ call }) => call("GET", `/api/subscriber-imports/${ref}`))

/** The import resource as it is now (the GET must answer 200). */
export const importNow = (ref: string | number) =>
  Effect.gen(function*() {
    const r = yield* getImport(ref)
    expectStatus(r, 200)
    return r.body.data
  })

/** POST /api/subscriber-imports/{ref}/{action} (append, start). */
export const importAction = (ref: string | number, action: string, body?: unknown) =>
  Effect.flatMap(TestServer, ({ call }) =>
    call("POST", `/api/subscriber-imports/${ref}/${action}`, body === undefined ? {} : { body }))

/** Starts the import (204), drains the worker and returns the finished import. */
export const startAndRun = (ref: string | number) =>
  Effect.gen(function*() {
    const { runImports } = yield* TestServer
    const started = yield* importAction(ref, "start")
    expectStatus(started, 204)
    yield* runImports
    return yield* importNow(ref)
  })

/** Creates an import of `csv` into `list`, runs it and expects it completed; the finished import. */
export const runImport = (list: TestList, csv: string, flags: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const created = yield* createImport(list, csv, flags)
    const done = yield* startAndRun(created.id)
    expect(done.status, JSON.stringify(done)).toBe("completed")
    return done
  })

/** Every item of a collection path, following `links.next` page by page (100 per page). */
export const collectAll = (path: string) =>
  Effect.gen(function*() {
    const { call, url } = yield* TestServer
    const items: Array<any> = []
    let next: string | null = `${path}${path.includes("?") ? "&" : "?"}per_page=100`
    while (next !== null) {
      const r: Reply = yield* call("GET", next)
      expectStatus(r, 200)
      items.push(...r.body.data)
      next = r.body.links.next === null ? null : String(r.body.links.next).replace(url, "")
    }
    return items
  })

/** The refused rows of an import, as `{line, email, reason}` in the order the API gives them. */
export const importErrors = (ref: string | number) => collectAll(`/api/subscriber-imports/${ref}/errors`)

/** The subscribers of a list keyed by email. */
export const subscribersOf = (list: TestList) =>
  Effect.map(collectAll(`/api/email-lists/${list.uuid}/subscribers`), (items) =>
    new Map<string, any>(items.map((s) => [s.email as string, s])))

/** `meta.total` of the list's subscribers with `filter[status]=status`. */
export const countWithStatus = (list: TestList, status: string) =>
  Effect.gen(function*() {
    const { call } = yield* TestServer
    const r = yield* call("GET", `/api/email-lists/${list.uuid}/subscribers?filter[status]=${status}&per_page=1`)
    expectStatus(r, 200)
    return r.body.meta.total as number
  })

/** The list's `active_subscribers_count`. */
export const activeCount = (list: TestList) =>
  Effect.gen(function*() {
    const { call } = yield* TestServer
    const r = yield* call("GET", `/api/email-lists/${list.uuid}`)
    expectStatus(r, 200)
    return r.body.data.active_subscribers_count as number
  })

/** Expects the list's active counter to equal the number of subscribed members, and returns it. */
export const expectExactActiveCount = (list: TestList, expected: number) =>
  Effect.gen(function*() {
    expect(yield* countWithStatus(list, "subscribed")).toBe(expected)
    expect(yield* activeCount(list)).toBe(expected)
  })

/** Tag name → subscriber_count of a list. */
export const tagCounts = (list: TestList) =>
  Effect.map(collectAll(`/api/email-lists/${list.uuid}/tags`), (tags) =>
    Object.fromEntries(tags.map((t) => [t.name as string, t.subscriber_count as number])) as Record<string, number>)

/** Subscribes one address through the subscribers API (no confirmation); its resource. */
export const subscribe = (list: TestList, body: Record<string, unknown>) =>
  Effect.gen(function*() {
    const { call } = yield* TestServer
    const r = yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, { body: { skip_confirmation: true, ...body } })
    expect([200, 201], r.text).toContain(r.status)
    return r.body.data
  })

/** A CSV of `count` rows `prefix{i}@example.com` starting at `from`, with a header when `header`. */
export const numberedCsv = (prefix: string, from: number, count: number, header = true): string => {
  const lines = header ? ["email,first_name"] : []
  for (let i = from; i < from + count; i++) lines.push(`${prefix}${i}@example.com,First${i}`)
  return lines.join("\n") + "\n"
}
