import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, TIMESTAMP, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const KEYS = [
  "created_at",
  "email_list_uuid",
  "name",
  "subscriber_count",
  "type",
  "updated_at",
  "uuid",
  "visible_in_preferences"
]
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

describe.each(stores)("tags on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const newList = Effect.gen(function*() {
      const { call } = yield* TestServer
      const r = yield* call("POST", "/api/email-lists", { body: { name: unique("Tags "), default_from_email: "a@example.com" } })
      expectStatus(r, 201)
      return r.body.data.uuid as string
    })
    const tags = (list: string) => `/api/email-lists/${list}/tags`
    const post = (list: string, body: unknown) => Effect.flatMap(TestServer, ({ call }) => call("POST", tags(list), { body }))
    const create = (list: string, body: Record<string, unknown>) =>
      Effect.gen(function*() {
        const r = yield* post(list, body)
        expectStatus(r, 201)
        return r.body.data
      })

    it.effect("POST answers 201 with exactly the tag fields and their defaults", () =>
      Effect.gen(function*() {
        const list = yield* newList
        const r = yield* post(list, { name: "Customers" })
        expectStatus(r, 201)
        expect(Object.keys(r.body)).toEqual(["data"])
        const tag = r.body.data
        expect(Object.keys(tag).sort()).toEqual(KEYS)
        expect(tag.uuid).toMatch(UUID)
        expect(tag).toMatchObject({
          name: "Customers",
          email_list_uuid: list,
          type: "default",
          visible_in_preferences: false,
          subscriber_count: 0
        })
        expect(tag.created_at).toMatch(TIMESTAMP)
        expect(tag.updated_at).toMatch(TIMESTAMP)
        const visible = yield* create(list, { name: "Visible", visible_in_preferences: true })
        expect(visible.visible_in_preferences).toBe(true)
        const nulled = yield* create(list, { name: "Nulled", visible_in_preferences: null })
        expect(nulled.visible_in_preferences).toBe(false)
        expect((yield* create(list, { name: "  Padded  " })).name).toBe("Padded")
        expect((yield* create(list, { name: "y".repeat(255) })).name).toBe("y".repeat(255))
      }))

    it.effect("a missing or invalid name or flag answers 422 and creates nothing", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const bodies = [{}, { name: "" }, { name: "   " }, { name: null }, { name: 5 }, { name: ["a"] }, { name: "x".repeat(256) }]
        for (const body of [...bodies, { visible_in_preferences: true }]) {
          expectValidation(yield* post(list, body), ["name"])
        }
        expectValidation(yield* post(list, { name: "ok", visible_in_preferences: "maybe" }), ["visible_in_preferences"])
        expect((yield* call("GET", tags(list))).body.meta.total).toBe(0)
      }))

    it.effect("POST of an existing name (any case, padded) answers 200 with the tag unchanged", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const first = yield* post(list, { name: "Newsletter", visible_in_preferences: true })
        expectStatus(first, 201)
        yield* Effect.sleep("15 millis")
        for (const name of ["Newsletter", "newsletter", "NEWSLETTER", "  Newsletter  "]) {
          const again = yield* post(list, { name, visible_in_preferences: false })
          expectStatus(again, 200)
          expect(again.body).toEqual(first.body)
        }
        const all = yield* call("GET", tags(list))
        expect(all.body.data.map((t: { uuid: string }) => t.uuid)).toEqual([first.body.data.uuid])
      }))

    // Regression: SQLite's lower() folded ASCII only (fixed in 80aa4db with a JS-computed name_key).
    it.effect("names differing only in the case of non-ASCII letters are the same tag", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const first = yield* post(list, { name: "Ärger" })
        expectStatus(first, 201)
        for (const name of ["ärger", "ÄRGER"]) {
          const again = yield* post(list, { name })
          expectStatus(again, 200)
          expect(again.body).toEqual(first.body)
        }
        const other = yield* create(list, { name: "Élan" })
        expectValidation(yield* call("PUT", `${tags(list)}/${other.uuid}`, { body: { name: "ÄrGeR" } }), ["name"])
        expect((yield* call("GET", tags(list))).body.meta.total).toBe(2)
      }))

    it.effect("concurrent POSTs of one name create exactly one tag", () =>
      Effect.gen(function*() {
        const list = yield* newList
        const replies = yield* Effect.all(
          Array.from({ length: 8 }, (_, i) => post(list, { name: i % 2 ? "RACE" : "race" })),
          { concurrency: "unbounded" }
        )
        for (const r of replies) expect([200, 201], r.text).toContain(r.status)
        expect(replies.filter((r) => r.status === 201).length).toBe(1)
        expect(new Set(replies.map((r) => r.body.data.uuid)).size).toBe(1)
      }))

    it.effect("the same name in another list is a new tag", () =>
      Effect.gen(function*() {
        const a = yield* newList
        const b = yield* newList
        const inA = yield* create(a, { name: "Shared" })
        const inB = yield* create(b, { name: "shared" })
        expect(inB.uuid).not.toBe(inA.uuid)
        expect(inB.email_list_uuid).toBe(b)
        expect(inB.name).toBe("shared")
      }))

    it.effect("GET returns the tag; unknown list, unknown tag, garbage and another list's tag answer 404", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const other = yield* newList
        const tag = yield* create(list, { name: "Readers" })
        const foreign = yield* create(other, { name: "Foreign" })
        const read = yield* call("GET", `${tags(list)}/${tag.uuid}`)
        expectStatus(read, 200)
        expect(read.body).toEqual({ data: tag })
        const missing = [
          `${tags(crypto.randomUUID())}/${tag.uuid}`,
          `${tags(list)}/${crypto.randomUUID()}`,
          `${tags(list)}/abc`,
          `${tags(list)}/99999999999999`,
          `${tags("abc")}/${tag.uuid}`,
          `${tags(list)}/${foreign.uuid}`,
          `${tags(other)}/${tag.uuid}`
        ]
        for (const path of missing) {
          expectMessageOnly(yield* call("GET", path), 404)
          expectMessageOnly(yield* call("PUT", path, { body: { name: "Renamed" } }), 404)
          expectMessageOnly(yield* call("DELETE", path), 404)
        }
        expectMessageOnly(yield* post(crypto.randomUUID(), { name: "x" }), 404)
        expectMessageOnly(yield* post("abc", { name: "x" }), 404)
        expect((yield* call("GET", `${tags(list)}/${tag.uuid}`)).body).toEqual({ data: tag })
        expect((yield* call("GET", `${tags(other)}/${foreign.uuid}`)).body).toEqual({ data: foreign })
      }))

    it.effect("PUT renames; an absent visible_in_preferences resets to false", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const tag = yield* create(list, { name: "Old", visible_in_preferences: true })
        yield* Effect.sleep("15 millis")
        const r = yield* call("PUT", `${tags(list)}/${tag.uuid}`, { body: { name: "New" } })
        expectStatus(r, 200)
        expect(r.body.data).toMatchObject({
          uuid: tag.uuid,
          name: "New",
          visible_in_preferences: false,
          email_list_uuid: list,
          created_at: tag.created_at
        })
        expect(r.body.data.updated_at > tag.updated_at).toBe(true)
        expect((yield* call("GET", `${tags(list)}/${tag.uuid}`)).body).toEqual(r.body)
        const shown = yield* call("PUT", `${tags(list)}/${tag.uuid}`, { body: { name: "New", visible_in_preferences: true } })
        expect(shown.body.data.visible_in_preferences).toBe(true)
        const recased = yield* call("PUT", `${tags(list)}/${tag.uuid}`, { body: { name: "NEW", visible_in_preferences: true } })
        expectStatus(recased, 200)
        expect(recased.body.data.name).toBe("NEW")
        expectValidation(yield* call("PUT", `${tags(list)}/${tag.uuid}`, { body: {} }), ["name"])
        expectValidation(yield* call("PUT", `${tags(list)}/${tag.uuid}`, { body: { name: "" } }), ["name"])
        expect((yield* call("GET", `${tags(list)}/${tag.uuid}`)).body.data.name).toBe("NEW")
      }))

    it.effect("renaming onto another tag's name of the list (any case) answers 422 on name", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const other = yield* newList
        yield* create(list, { name: "Taken" })
        yield* create(other, { name: "Elsewhere" })
        const tag = yield* create(list, { name: "Mine" })
        for (const name of ["Taken", "taken", " TAKEN "]) {
          expectValidation(yield* call("PUT", `${tags(list)}/${tag.uuid}`, { body: { name } }), ["name"])
        }
        expect((yield* call("GET", `${tags(list)}/${tag.uuid}`)).body).toEqual({ data: tag })
        const free = yield* call("PUT", `${tags(list)}/${tag.uuid}`, { body: { name: "Elsewhere" } })
        expectStatus(free, 200)
        expect(free.body.data.name).toBe("Elsewhere")
      }))

    it.effect("DELETE answers 204, then 404; the tag leaves the list", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const tag = yield* create(list, { name: "Gone" })
        const keep = yield* create(list, { name: "Kept" })
        const del = yield* call("DELETE", `${tags(list)}/${tag.uuid}`)
        expectStatus(del, 204)
        expect(del.text).toBe("")
        expectMessageOnly(yield* call("GET", `${tags(list)}/${tag.uuid}`), 404)
        expectMessageOnly(yield* call("DELETE", `${tags(list)}/${tag.uuid}`), 404)
        const rest = yield* call("GET", tags(list))
        expect(rest.body.data.map((t: { uuid: string }) => t.uuid)).toEqual([keep.uuid])
        expectStatus(yield* post(list, { name: "Gone" }), 201)
      }))

    it.effect("deleting a tag detaches it from subscribers and segments", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const sub = yield* call("POST", `/api/email-lists/${list}/subscribers`, {
          body: { email: `${unique("detach")}@example.com`, tags: ["Doomed", "Survivor"] }
        })
        expectStatus(sub, 201)
        expect([...sub.body.data.tags].sort()).toEqual(["Doomed", "Survivor"])
        const seg = yield* call("POST", `/api/email-lists/${list}/segments`, {
          body: { name: "Seg", positive_tags: ["Doomed", "Survivor"], negative_tags: ["Doomed"] }
        })
        expectStatus(seg, 201)
        const doomed = (yield* call("GET", `${tags(list)}?filter[search]=Doomed`)).body.data[0]
        expectStatus(yield* call("DELETE", `${tags(list)}/${doomed.uuid}`), 204)
        const after = yield* call("GET", `/api/subscribers/${sub.body.data.uuid}`)
        expectStatus(after, 200)
        expect(after.body.data.tags).toEqual(["Survivor"])
        const segAfter = yield* call("GET", `/api/email-lists/${list}/segments/${seg.body.data.uuid}`)
        expectStatus(segAfter, 200)
        expect(segAfter.body.data.positive_tags).toEqual(["Survivor"])
        expect(segAfter.body.data.negative_tags).toEqual([])
        const again = yield* create(list, { name: "Doomed" })
        expect(again.subscriber_count).toBe(0)
        expect((yield* call("GET", `/api/subscribers/${sub.body.data.uuid}`)).body.data.tags).toEqual(["Survivor"])
      }))
  })
})
