/** Subscriber import endpoints: create, read, update, append, start, delete, their 404s and 422s, and the lifecycle. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, TIMESTAMP } from "./expectations.js"
import {
  createImport,
  createList,
  getImport,
  IMPORT_FIELDS,
  importAction,
  importNow,
  postImport,
  startAndRun,
  subscribersOf
} from "./imports.support.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const MISSING_UUID = "6b2c1d2e-0000-4000-8000-000000000000"
const NOT_DRAFT_UPDATE = "Cannot update a non-draft import."
const NOT_DRAFT_START = "Cannot start a non-draft import."

describe.each(stores)("subscriber imports on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const put = (ref: string | number, body: unknown) =>
      Effect.flatMap(TestServer, ({ call }) => call("PUT", `/api/subscriber-imports/${ref}`, { body }))
    const importsOfList = (listId: number) =>
      Effect.gen(function*() {
        const r = yield* (yield* TestServer).call("GET", `/api/subscriber-imports?filter[email_list_id]=${listId}`)
        expectStatus(r, 200)
        return r.body.meta.total as number
      })

    it.effect("POST answers 200 {data} with exactly the import fields, a draft holding the CSV text", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const csv = "email,first_name\nada@example.com,Ada\n"
        const r = yield* postImport({ subscribers_csv: csv, email_list_id: list.id, subscribe_unsubscribed: true, unsubscribe_others: false })
        expectStatus(r, 200)
        expect(Object.keys(r.body)).toEqual(["data"])
        const data = r.body.data
        expect(Object.keys(data).sort()).toEqual(IMPORT_FIELDS)
        expect(Number.isInteger(data.id)).toBe(true)
        expect(data.uuid).toMatch(UUID)
        expect(data).toMatchObject({
          subscribers_csv: csv,
          status: "draft",
          email_list_id: list.id,
          subscribe_unsubscribed: true,
          unsubscribe_others: false,
          replace_tags: false,
          imported_subscribers_count: null,
          error_count: 0,
          failure_reason: null,
          started_at: null,
          finished_at: null
        })
        expect(data.created_at).toMatch(TIMESTAMP)
        expect(data.updated_at).toMatch(TIMESTAMP)
        const withTags = yield* createImport(list, csv, { replace_tags: true, unsubscribe_others: true })
        expect(withTags).toMatchObject({ replace_tags: true, unsubscribe_others: true, subscribe_unsubscribed: false })
        expect(yield* subscribersOf(list)).toEqual(new Map())
      }))

    it.effect("each missing required field is named in the 422, and nothing is created", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const full = { subscribers_csv: "email\n", email_list_id: list.id, subscribe_unsubscribed: false, unsubscribe_others: false }
        const all = yield* postImport({})
        expectValidation(all, Object.keys(full))
        expect(Object.keys(all.body.errors).sort()).toEqual(Object.keys(full).sort())
        for (const field of Object.keys(full)) {
          const { [field]: _, ...rest } = full as Record<string, unknown>
          const r = yield* postImport(rest)
          expectValidation(r, [field])
          expect(Object.keys(r.body.errors)).toEqual([field])
        }
        expect(yield* importsOfList(list.id)).toBe(0)
      }))

    it.effect("wrong types and an unknown list answer 422 on that field", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const ok = { subscribers_csv: "email\n", email_list_id: list.id, subscribe_unsubscribed: false, unsubscribe_others: false }
        const cases: Array<[string, unknown]> = [
          ["subscribers_csv", 5],
          ["subscribers_csv", null],
          ["email_list_id", 999_999_999],
          ["email_list_id", 99_999_999_999],
          ["email_list_id", "abc"],
          ["email_list_id", 1.5],
          ["email_list_id", list.uuid],
          ["subscribe_unsubscribed", "maybe"],
          ["unsubscribe_others", [true]],
          ["replace_tags", "perhaps"]
        ]
        for (const [field, value] of cases) {
          const r = yield* postImport({ ...ok, [field]: value })
          expectValidation(r, [field])
          expect(Object.keys(r.body.errors), `${field}=${JSON.stringify(value)}`).toEqual([field])
        }
        const malformed = yield* (yield* TestServer).call("POST", "/api/subscriber-imports", { body: "{\"subscribers_csv\": " })
        expect(malformed.status, malformed.text).toBeGreaterThanOrEqual(400)
        expect(malformed.status, malformed.text).toBeLessThan(500)
        expect(yield* importsOfList(list.id)).toBe(0)
      }))

    it.effect("GET by integer id or uuid returns the same import; unknown ids answer 404 on every endpoint", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList()
        const created = yield* createImport(list, "email\nx@example.com\n")
        const byId = yield* getImport(created.id)
        expectStatus(byId, 200)
        expect(byId.body).toEqual({ data: created })
        expect((yield* getImport(created.uuid)).body).toEqual({ data: created })
        const body = { subscribers_csv: "email\n", email_list_id: list.id, subscribe_unsubscribed: false, unsubscribe_others: false }
        for (const ref of ["999999999", "0", "-1", "1.5", "abc", MISSING_UUID, "99999999999"]) {
          expectMessageOnly(yield* getImport(ref), 404)
          expectMessageOnly(yield* put(ref, body), 404)
          expectMessageOnly(yield* importAction(ref, "append", { subscribers_csv: "a@example.com\n" }), 404)
          expectMessageOnly(yield* importAction(ref, "start"), 404)
          expectMessageOnly(yield* call("GET", `/api/subscriber-imports/${ref}/errors`), 404)
          expectMessageOnly(yield* call("DELETE", `/api/subscriber-imports/${ref}`), 404)
        }
        expect(yield* importNow(created.id)).toEqual(created)
      }))

    it.effect("PUT replaces the settings and the CSV of a draft; an invalid PUT changes nothing", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const other = yield* createList()
        const created = yield* createImport(list, "email\nold@example.com\n", { replace_tags: true })
        yield* Effect.sleep("5 millis")
        const csv = "Email Address,last_name\nnew@example.com,Neu\n"
        const r = yield* put(created.id, { subscribers_csv: csv, email_list_id: other.id, subscribe_unsubscribed: true, unsubscribe_others: true })
        expectStatus(r, 200)
        expect(r.body.data).toMatchObject({
          id: created.id,
          uuid: created.uuid,
          subscribers_csv: csv,
          status: "draft",
          email_list_id: other.id,
          subscribe_unsubscribed: true,
          unsubscribe_others: true,
          created_at: created.created_at
        })
        expect(r.body.data.updated_at > created.updated_at).toBe(true)
        const stored = yield* importNow(created.uuid)
        expect(stored).toEqual(r.body.data)
        expectValidation(yield* put(created.id, {}), ["subscribers_csv", "email_list_id", "subscribe_unsubscribed", "unsubscribe_others"])
        const { subscribers_csv: _, email_list_id: __, subscribe_unsubscribed, unsubscribe_others } = r.body.data
        const invalid = { subscribers_csv: "email\n", email_list_id: 999_999_999, subscribe_unsubscribed, unsubscribe_others }
        expectValidation(yield* put(created.id, invalid), ["email_list_id"])
        expect(yield* importNow(created.id)).toEqual(stored)
        const done = yield* startAndRun(created.id)
        expect(done.status).toBe("completed")
        expect([...(yield* subscribersOf(other)).keys()]).toEqual(["new@example.com"])
        expect((yield* subscribersOf(list)).size).toBe(0)
      }))

    it.effect("append extends the CSV text, also in the middle of a line, and answers 200 {data}", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const created = yield* createImport(list, "email,first_name\nann@example.com,Ann\nbob@exam")
        yield* Effect.sleep("5 millis")
        const r = yield* importAction(created.id, "append", { subscribers_csv: "ple.com,Bob\n" })
        expectStatus(r, 200)
        expect(Object.keys(r.body)).toEqual(["data"])
        expect(r.body.data).toMatchObject({ id: created.id, status: "draft", subscribers_csv: "email,first_name\nann@example.com,Ann\nbob@example.com,Bob\n" })
        expect(r.body.data.updated_at > created.updated_at).toBe(true)
        const again = yield* importAction(created.uuid, "append", { subscribers_csv: "cy@example.com,Cy" })
        expectStatus(again, 200)
        expect(again.body.data.subscribers_csv).toBe("email,first_name\nann@example.com,Ann\nbob@example.com,Bob\ncy@example.com,Cy")
        expect(yield* importNow(created.id)).toEqual(again.body.data)
        for (const body of [{}, { subscribers_csv: 5 }, { subscribers_csv: null }]) {
          expectValidation(yield* importAction(created.id, "append", body), ["subscribers_csv"])
        }
        expect(yield* importNow(created.id)).toEqual(again.body.data)
        const done = yield* startAndRun(created.id)
        expect(done).toMatchObject({ status: "completed", imported_subscribers_count: 3, error_count: 0 })
        const subscribers = yield* subscribersOf(list)
        expect([...subscribers.keys()].sort()).toEqual(["ann@example.com", "bob@example.com", "cy@example.com"])
        expect(subscribers.get("bob@example.com").first_name).toBe("Bob")
      }))

    it.effect("start answers 204, the import is pending with its CSV hidden, then the worker completes it", () =>
      Effect.gen(function*() {
        const { runImports } = yield* TestServer
        const list = yield* createList()
        const created = yield* createImport(list, "email\none@example.com\ntwo@example.com\n")
        const started = yield* importAction(created.id, "start")
        expectStatus(started, 204)
        expect(started.text).toBe("")
        const pending = yield* importNow(created.id)
        expect(pending).toMatchObject({ status: "pending", subscribers_csv: null, imported_subscribers_count: null, finished_at: null, error_count: 0 })
        expect(yield* runImports).toBe(1)
        const done = yield* importNow(created.id)
        expect(done).toMatchObject({
          status: "completed",
          subscribers_csv: null,
          imported_subscribers_count: 2,
          error_count: 0,
          failure_reason: null
        })
        expect(done.started_at).toMatch(TIMESTAMP)
        expect(done.finished_at).toMatch(TIMESTAMP)
        expect(done.finished_at >= done.started_at).toBe(true)
        expect(done.started_at >= created.created_at).toBe(true)
        expect(yield* runImports).toBe(0)
        expect([...(yield* subscribersOf(list)).keys()].sort()).toEqual(["one@example.com", "two@example.com"])
      }))

    it.effect("start, PUT and append on a pending or completed import answer 422 {message} and change nothing", () =>
      Effect.gen(function*() {
        const { runImports } = yield* TestServer
        const list = yield* createList()
        const created = yield* createImport(list, "email\nstay@example.com\n")
        expectStatus(yield* importAction(created.id, "start"), 204)
        const body = { subscribers_csv: "email\nother@example.com\n", email_list_id: list.id, subscribe_unsubscribed: false, unsubscribe_others: false }
        for (const phase of ["pending", "completed"]) {
          const before = yield* importNow(created.id)
          expect(before.status).toBe(phase)
          expectMessageOnly(yield* importAction(created.id, "start"), 422, NOT_DRAFT_START)
          expectMessageOnly(yield* put(created.id, body), 422, NOT_DRAFT_UPDATE)
          expectMessageOnly(yield* importAction(created.id, "append", { subscribers_csv: "more@example.com\n" }), 422, NOT_DRAFT_UPDATE)
          expect(yield* importNow(created.id)).toEqual(before)
          yield* runImports
        }
        expect([...(yield* subscribersOf(list)).keys()]).toEqual(["stay@example.com"])
      }))

    it.effect("a draft without an email column is accepted; its start answers 422 errors.file and deletes it", () =>
      Effect.gen(function*() {
        const { call, runImports } = yield* TestServer
        const list = yield* createList()
        for (const [first, ...rest] of [["name,plan"], [""], ["na", "me,", "pl", "an"], ["fir", "st", "_na", "me", ",plan"]]) {
          const created = yield* createImport(list, first!)
          expect(created.status).toBe("draft")
          for (const part of rest) expectStatus(yield* importAction(created.id, "append", { subscribers_csv: part }), 200)
          const started = yield* importAction(created.id, "start")
          expectValidation(started, ["file"])
          expect(Object.keys(started.body.errors)).toEqual(["file"])
          expect(started.body.errors.file[0]).toMatch(/^No header row with an email column found/)
          expect(yield* runImports).toBe(0)
          expect((yield* call("GET", `/api/subscriber-imports/${created.id}`)).status).toBe(404)
        }
        const split = yield* createImport(list, "em")
        expectStatus(yield* importAction(split.id, "append", { subscribers_csv: "ail\nsplit@example.com\n" }), 200)
        expect((yield* startAndRun(split.id)).status).toBe("completed")
        expect([...(yield* subscribersOf(list)).keys()]).toEqual(["split@example.com"])
      }))

    it.effect("deleting the list deletes its imports, drafts and started ones alike; the started one's work ends quietly", () =>
      Effect.gen(function*() {
        const { call, runImports } = yield* TestServer
        const list = yield* createList()
        const other = yield* createList()
        const orphan = yield* createImport(list, "email\nlost@example.com\n")
        const started = yield* createImport(list, "email\nlost@example.com\n")
        const kept = yield* createImport(other, "email\nkept@example.com\n")
        expectStatus(yield* importAction(started.id, "start"), 204)
        expectStatus(yield* call("DELETE", `/api/email-lists/${list.uuid}`), 204)
        expectMessageOnly(yield* getImport(orphan.id), 404)
        expectMessageOnly(yield* getImport(started.id), 404)
        expectMessageOnly(yield* importAction(orphan.id, "start"), 404)
        yield* runImports
        expect(yield* runImports).toBe(0)
        expect((yield* importNow(kept.id)).status).toBe("draft")
      }))

    it.effect("DELETE answers 204 for a draft and a completed import; the imported subscribers stay", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList()
        const draft = yield* createImport(list, "email\ndraft@example.com\n")
        const r = yield* call("DELETE", `/api/subscriber-imports/${draft.id}`)
        expectStatus(r, 204)
        expect(r.text).toBe("")
        expectMessageOnly(yield* getImport(draft.id), 404)
        expectMessageOnly(yield* importAction(draft.id, "start"), 404)
        const pending = yield* createImport(list, "email\npending@example.com\n")
        expectStatus(yield* importAction(pending.id, "start"), 204)
        expectStatus(yield* call("DELETE", `/api/subscriber-imports/${pending.id}`), 204)
        expect(yield* (yield* TestServer).runImports).toBe(0)
        const done = yield* createImport(list, "email\nkept@example.com\nbad-address\n")
        expect((yield* startAndRun(done.id)).error_count).toBe(1)
        expectStatus(yield* call("DELETE", `/api/subscriber-imports/${done.uuid}`), 204)
        expectMessageOnly(yield* getImport(done.id), 404)
        expectMessageOnly(yield* call("GET", `/api/subscriber-imports/${done.id}/errors`), 404)
        expect([...(yield* subscribersOf(list)).keys()]).toEqual(["kept@example.com"])
      }))
  })
})
