import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, TIMESTAMP, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const KEYS = [
  "all_negative_tags_required",
  "all_positive_tags_required",
  "created_at",
  "email_list_uuid",
  "name",
  "negative_tags",
  "positive_tags",
  "updated_at",
  "uuid"
]
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

describe.each(stores)("segments on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    /** A new list holding the given tags. */
    const newList = (tagNames: ReadonlyArray<string> = []) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/email-lists", { body: { name: unique("Segs "), default_from_email: "a@example.com" } })
        expectStatus(r, 201)
        for (const name of tagNames) {
          expectStatus(yield* call("POST", `/api/email-lists/${r.body.data.uuid}/tags`, { body: { name } }), 201)
        }
        return r.body.data.uuid as string
      })
    const segments = (list: string) => `/api/email-lists/${list}/segments`
    const post = (list: string, body: unknown) =>
      Effect.flatMap(TestServer, ({ call }) => call("POST", segments(list), { body }))

    it.effect("POST answers 201 with exactly the segment fields and their defaults", () =>
      Effect.gen(function*() {
        const list = yield* newList()
        const r = yield* post(list, { name: "Everyone" })
        expectStatus(r, 201)
        expect(Object.keys(r.body)).toEqual(["data"])
        expect(Object.keys(r.body.data).sort()).toEqual(KEYS)
        expect(r.body.data.uuid).toMatch(UUID)
        expect(r.body.data).toMatchObject({
          name: "Everyone",
          email_list_uuid: list,
          positive_tags: [],
          negative_tags: [],
          all_positive_tags_required: false,
          all_negative_tags_required: false
        })
        expect(r.body.data.created_at).toMatch(TIMESTAMP)
        expect(r.body.data.updated_at).toMatch(TIMESTAMP)
        const nulls = yield* post(list, { name: "Nulls", positive_tags: null, negative_tags: null })
        expectStatus(nulls, 201)
        expect(nulls.body.data).toMatchObject({ positive_tags: [], negative_tags: [] })
      }))

    it.effect("POST stores tag conditions by existing tag names, matched case-insensitively", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList(["VIP", "Buyers", "Churned"])
        const r = yield* post(list, {
          name: "Good customers",
          positive_tags: ["vip", "Buyers"],
          negative_tags: ["CHURNED"],
          all_positive_tags_required: true,
          all_negative_tags_required: true
        })
        expectStatus(r, 201)
        expect([...r.body.data.positive_tags].sort()).toEqual(["Buyers", "VIP"])
        expect(r.body.data.negative_tags).toEqual(["Churned"])
        expect(r.body.data).toMatchObject({ all_positive_tags_required: true, all_negative_tags_required: true })
        const read = yield* call("GET", `${segments(list)}/${r.body.data.uuid}`)
        expectStatus(read, 200)
        expect(read.body).toEqual(r.body)
      }))

    it.effect("unknown tag names (or another list's tags) answer 422 on positive_tags.N / negative_tags.N", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList(["known"])
        yield* newList(["foreign"])
        const r = yield* post(list, { name: "Bad", positive_tags: ["known", "nope"], negative_tags: ["foreign"] })
        expectValidation(r, ["positive_tags.1", "negative_tags.0"])
        expect(r.body.errors["positive_tags.1"]).toEqual(["The selected positive_tags.1 is invalid."])
        expect(r.body.errors["negative_tags.0"]).toEqual(["The selected negative_tags.0 is invalid."])
        expect(Object.keys(r.body.errors).sort()).toEqual(["negative_tags.0", "positive_tags.1"])
        expect((yield* call("GET", segments(list))).body.meta.total).toBe(0)
      }))

    // Fails: the decode-error formatter also reports the union's null branch, "The positive tags field must be a null."
    it.effect("a non-string tag name is reported on its item only", () =>
      Effect.gen(function*() {
        const list = yield* newList(["t"])
        const r = yield* post(list, { name: "x", positive_tags: ["t", 5], negative_tags: [null] })
        expectValidation(r, ["positive_tags.1", "negative_tags.0"])
        expect(Object.keys(r.body.errors).sort()).toEqual(["negative_tags.0", "positive_tags.1"])
      }))

    // Regression: on SQLite tag names were matched with lower(), which folds ASCII only.
    it.effect("tag names with non-ASCII letters match case-insensitively", () =>
      Effect.gen(function*() {
        const list = yield* newList(["Été"])
        const r = yield* post(list, { name: "Summer", positive_tags: ["été"], negative_tags: ["ÉTÉ"] })
        expectStatus(r, 201)
        expect(r.body.data).toMatchObject({ positive_tags: ["Été"], negative_tags: ["Été"] })
      }))

    it.effect("a missing name or malformed condition fields answer 422", () =>
      Effect.gen(function*() {
        const list = yield* newList(["t"])
        for (const body of [{}, { name: "" }, { name: "  " }, { name: null }, { name: 7 }, { name: "z".repeat(256) }, { positive_tags: ["t"] }]) {
          expectValidation(yield* post(list, body), ["name"])
        }
        expectValidation(yield* post(list, { name: "x", positive_tags: "t" }), ["positive_tags"])
        expectValidation(yield* post(list, { name: "x", negative_tags: { a: 1 } }), ["negative_tags"])
        expectValidation(yield* post(list, { name: "x", all_positive_tags_required: "maybe" }), ["all_positive_tags_required"])
        expectValidation(yield* post(list, { name: "x", all_negative_tags_required: "maybe" }), ["all_negative_tags_required"])
        expectMessageOnly(yield* post(crypto.randomUUID(), { name: "x" }), 404)
        expectMessageOnly(yield* post("abc", { name: "x" }), 404)
      }))

    it.effect("PUT replaces every condition; absent ones reset", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList(["a", "b", "c"])
        const seg = (yield* post(list, {
          name: "Before",
          positive_tags: ["a", "b"],
          negative_tags: ["c"],
          all_positive_tags_required: true,
          all_negative_tags_required: true
        })).body.data
        yield* Effect.sleep("15 millis")
        const swapped = yield* call("PUT", `${segments(list)}/${seg.uuid}`, { body: { name: "Swapped", positive_tags: ["c"] } })
        expectStatus(swapped, 200)
        expect(swapped.body.data).toMatchObject({
          uuid: seg.uuid,
          name: "Swapped",
          email_list_uuid: list,
          positive_tags: ["c"],
          negative_tags: [],
          all_positive_tags_required: false,
          all_negative_tags_required: false,
          created_at: seg.created_at
        })
        expect(swapped.body.data.updated_at > seg.updated_at).toBe(true)
        expect((yield* call("GET", `${segments(list)}/${seg.uuid}`)).body).toEqual(swapped.body)
        const bad = yield* call("PUT", `${segments(list)}/${seg.uuid}`, { body: { name: "Bad", negative_tags: ["a", "zzz"] } })
        expectValidation(bad, ["negative_tags.1"])
        expectValidation(yield* call("PUT", `${segments(list)}/${seg.uuid}`, { body: { positive_tags: ["a"] } }), ["name"])
        expect((yield* call("GET", `${segments(list)}/${seg.uuid}`)).body).toEqual(swapped.body)
      }))

    it.effect("unknown list, unknown segment, garbage and another list's segment answer 404", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList()
        const other = yield* newList()
        const seg = (yield* post(list, { name: "Mine" })).body.data
        const foreign = (yield* post(other, { name: "Theirs" })).body.data
        const missing = [
          `${segments(crypto.randomUUID())}/${seg.uuid}`,
          `${segments(list)}/${crypto.randomUUID()}`,
          `${segments(list)}/abc`,
          `${segments(list)}/99999999999999`,
          `${segments("abc")}/${seg.uuid}`,
          `${segments(list)}/${foreign.uuid}`,
          `${segments(other)}/${seg.uuid}`
        ]
        for (const path of missing) {
          expectMessageOnly(yield* call("GET", path), 404)
          expectMessageOnly(yield* call("PUT", path, { body: { name: "Renamed" } }), 404)
          expectMessageOnly(yield* call("DELETE", path), 404)
        }
        expect((yield* call("GET", `${segments(list)}/${seg.uuid}`)).body).toEqual({ data: seg })
        expect((yield* call("GET", `${segments(other)}/${foreign.uuid}`)).body).toEqual({ data: foreign })
      }))

    it.effect("DELETE answers 204, then 404; the list's tags stay", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList(["kept"])
        const seg = (yield* post(list, { name: "Gone", positive_tags: ["kept"] })).body.data
        const del = yield* call("DELETE", `${segments(list)}/${seg.uuid}`)
        expectStatus(del, 204)
        expect(del.text).toBe("")
        expectMessageOnly(yield* call("GET", `${segments(list)}/${seg.uuid}`), 404)
        expectMessageOnly(yield* call("DELETE", `${segments(list)}/${seg.uuid}`), 404)
        expect((yield* call("GET", segments(list))).body.meta.total).toBe(0)
        const tags = yield* call("GET", `/api/email-lists/${list}/tags`)
        expect(tags.body.data.map((t: { name: string }) => t.name)).toEqual(["kept"])
      }))

    it.effect("renaming a tag shows the new name in the segment", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList(["old name", "other"])
        const seg = (yield* post(list, { name: "S", positive_tags: ["old name"], negative_tags: ["other"] })).body.data
        const tag = (yield* call("GET", `/api/email-lists/${list}/tags?filter[search]=old`)).body.data[0]
        expectStatus(yield* call("PUT", `/api/email-lists/${list}/tags/${tag.uuid}`, { body: { name: "New Name" } }), 200)
        const read = yield* call("GET", `${segments(list)}/${seg.uuid}`)
        expect(read.body.data.positive_tags).toEqual(["New Name"])
        expect(read.body.data.negative_tags).toEqual(["other"])
        expectValidation(yield* post(list, { name: "T", positive_tags: ["old name"] }), ["positive_tags.0"])
        expectStatus(yield* post(list, { name: "T", positive_tags: ["new name"] }), 201)
      }))
  })
})
