/** GET /api/subscriber-imports (envelope, sorts, filters, 400s), GET …/{id}/errors (refused rows by line), token abilities. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, query } from "./expectations.js"
import {
  createImport,
  createList,
  IMPORT_FIELDS,
  importAction,
  importErrors,
  importNow,
  INVALID,
  runImport,
  type TestList
} from "./imports.support.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

describe.each(stores)("subscriber import collections on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const page = (params: Record<string, string | number>, path = "/api/subscriber-imports") =>
      Effect.flatMap(TestServer, ({ call }) => call("GET", `${path}?${query(params)}`))
    const ids = (params: Record<string, string | number>) =>
      Effect.gen(function*() {
        const r = yield* page({ per_page: 100, ...params })
        expectStatus(r, 200)
        return r.body.data.map((i: { id: number }) => i.id) as Array<number>
      })
    /** Three imports of one list created a few milliseconds apart: a draft, a pending one and a completed one. */
    const three = (list: TestList) =>
      Effect.gen(function*() {
        const done = yield* runImport(list, "email\ndone@example.com\n")
        yield* Effect.sleep("5 millis")
        const pending = yield* createImport(list, "email\npending@example.com\n")
        expectStatus(yield* importAction(pending.id, "start"), 204)
        yield* Effect.sleep("5 millis")
        const draft = yield* createImport(list, "email\ndraft@example.com\n")
        return { done, pending: yield* importNow(pending.id), draft }
      })

    it.effect("the collection envelope holds import resources without CSV text (one import's GET shows it), newest first", () =>
      Effect.gen(function*() {
        const { call, runImports } = yield* TestServer
        const list = yield* createList()
        const { done, pending, draft } = yield* three(list)
        const r = yield* call("GET", `/api/subscriber-imports?filter[email_list_id]=${list.id}`)
        expectStatus(r, 200)
        expect(Object.keys(r.body).sort()).toEqual(["data", "links", "meta"])
        expect(r.body.meta).toMatchObject({ current_page: 1, from: 1, to: 3, last_page: 1, per_page: 15, total: 3 })
        expect(r.body.links).toMatchObject({ prev: null, next: null })
        expect(r.body.data.map((i: { id: number }) => i.id)).toEqual([draft.id, pending.id, done.id])
        for (const item of r.body.data) expect(Object.keys(item).sort()).toEqual(IMPORT_FIELDS)
        expect(r.body.data[0]).toEqual({ ...draft, subscribers_csv: null })
        expect(draft.subscribers_csv).toBe("email\ndraft@example.com\n")
        expect(r.body.data[1]).toEqual(pending)
        expect(r.body.data[1].subscribers_csv).toBeNull()
        expect(r.body.data[2]).toEqual(done)
        expect(done.subscribers_csv).toBeNull()
        yield* runImports
      }))

    it.effect("sort created_at / -created_at / updated_at order the imports; pages keep the filter", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const { done, pending, draft } = yield* three(list)
        const scope = { "filter[email_list_id]": list.id }
        expect(yield* ids({ ...scope, sort: "-created_at" })).toEqual([draft.id, pending.id, done.id])
        expect(yield* ids({ ...scope, sort: "created_at" })).toEqual([done.id, pending.id, draft.id])
        yield* Effect.sleep("5 millis")
        expectStatus(yield* importAction(draft.id, "append", { subscribers_csv: "late@example.com\n" }), 200)
        const byUpdate = yield* ids({ ...scope, sort: "-updated_at" })
        expect(byUpdate[0]).toBe(draft.id)
        expect(yield* ids({ ...scope, sort: "updated_at" })).toEqual([...byUpdate].reverse())
        const first = yield* page({ ...scope, per_page: 2, sort: "created_at" })
        expectStatus(first, 200)
        expect(first.body.meta).toMatchObject({ total: 3, last_page: 2, per_page: 2 })
        expect(new URL(first.body.links.next).searchParams.get("filter[email_list_id]")).toBe(String(list.id))
        const second = yield* page({ ...scope, per_page: 2, sort: "created_at", page: 2 })
        expect(second.body.data.map((i: { id: number }) => i.id)).toEqual([draft.id])
        yield* (yield* TestServer).runImports
      }))

    it.effect("filter[status] and filter[email_list_id] select the imports; unknown values select none", () =>
      Effect.gen(function*() {
        const { runImports } = yield* TestServer
        const list = yield* createList()
        const other = yield* createList()
        const { done, pending, draft } = yield* three(list)
        const elsewhere = yield* createImport(other, "email\n")
        const scope = { "filter[email_list_id]": list.id }
        expect(yield* ids({ ...scope, "filter[status]": "draft" })).toEqual([draft.id])
        expect(yield* ids({ ...scope, "filter[status]": "pending" })).toEqual([pending.id])
        expect(yield* ids({ ...scope, "filter[status]": "completed" })).toEqual([done.id])
        expect(yield* ids({ ...scope, "filter[status]": "failed" })).toEqual([])
        expect(yield* ids({ "filter[email_list_id]": other.id })).toEqual([elsewhere.id])
        const drafts = yield* ids({ "filter[status]": "draft" })
        expect(drafts).toContain(draft.id)
        expect(drafts).toContain(elsewhere.id)
        expect(drafts).not.toContain(done.id)
        for (const value of ["999999999", "9999999999", "99999999999", "abc", ""]) {
          const r = yield* page({ "filter[email_list_id]": value })
          expectStatus(r, 200)
          if (value !== "") expect(r.body.data).toEqual([])
        }
        yield* runImports
        expect(yield* ids({ ...scope, "filter[status]": "completed" })).toEqual([pending.id, done.id])
      }))

    it.effect("unknown sort, filter or include keys answer 400 naming the allowed ones", () =>
      Effect.gen(function*() {
        for (const [params, allowed] of [
          [{ sort: "name" }, "created_at"],
          [{ sort: "-status" }, "updated_at"],
          [{ "filter[search]": "x" }, "email_list_id"],
          [{ include: "emailList" }, ""]
        ] as const) {
          const r = yield* page(params)
          expectMessageOnly(r, 400)
          expect(r.body.message).toContain(allowed)
        }
        const list = yield* createList()
        const imp = yield* createImport(list, "email\n")
        for (const params of [{ sort: "email" }, { "filter[line]": "2" }]) {
          expectMessageOnly(yield* page(params, `/api/subscriber-imports/${imp.id}/errors`), 400)
        }
      }))

    it.effect("errors lists every refused row as {line, email, reason}, by line, over several pages", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList()
        const lines = ["email,first_name"]
        const bad: Array<{ line: number; email: string; reason: string }> = []
        for (let i = 0; i < 40; i++) {
          lines.push(`ok${i}@example.com,Ok`)
          const address = i % 2 === 0 ? `broken${i}@` : `no-at-sign-${i}`
          lines.push(`${address},Bad`)
          bad.push({ line: lines.length, email: address, reason: INVALID })
        }
        const done = yield* runImport(list, lines.join("\n"))
        expect(done).toMatchObject({ imported_subscribers_count: 80, error_count: 40 })
        const first = yield* call("GET", `/api/subscriber-imports/${done.id}/errors`)
        expectStatus(first, 200)
        expect(Object.keys(first.body).sort()).toEqual(["data", "links", "meta"])
        expect(first.body.meta).toMatchObject({ total: 40, per_page: 15, last_page: 3 })
        expect(first.body.data).toEqual(bad.slice(0, 15))
        for (const row of first.body.data) expect(Object.keys(row).sort()).toEqual(["email", "line", "reason"])
        expect(yield* importErrors(done.id)).toEqual(bad)
        const reversed = yield* page({ sort: "-line", per_page: 100 }, `/api/subscriber-imports/${done.id}/errors`)
        expect(reversed.body.data).toEqual([...bad].reverse())
        expect(yield* importErrors(done.uuid)).toEqual(bad)
      }))

    it.effect("a draft and an import without refused rows have an empty errors list", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const draft = yield* createImport(list, "email\nnot-an-address\n")
        expect(yield* importErrors(draft.id)).toEqual([])
        const clean = yield* runImport(list, "email\nclean@example.com\n")
        expect(clean.error_count).toBe(0)
        expect(yield* importErrors(clean.id)).toEqual([])
      }))

    it.effect("tokens: none answers 401, read may only read, send may do nothing here", () =>
      Effect.gen(function*() {
        const { call, tokenWith } = yield* TestServer
        const list = yield* createList()
        const created = yield* createImport(list, "email\n")
        const body = { subscribers_csv: "email\n", email_list_id: list.id, subscribe_unsubscribed: false, unsubscribe_others: false }
        expectMessageOnly(yield* call("GET", "/api/subscriber-imports", { token: null }), 401, "Unauthorized.")
        const read = yield* tokenWith(["read"])
        expectStatus(yield* call("GET", `/api/subscriber-imports/${created.id}`, { token: read }), 200)
        expectMessageOnly(yield* call("POST", "/api/subscriber-imports", { token: read, body }), 403)
        expectMessageOnly(yield* call("POST", `/api/subscriber-imports/${created.id}/start`, { token: read }), 403)
        const send = yield* tokenWith(["send"])
        expectMessageOnly(yield* call("POST", `/api/subscriber-imports/${created.id}/append`, { token: send, body }), 403)
        expect(yield* importNow(created.id)).toEqual(created)
      }))
  })
})
