import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectStatus, query, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

/** Subscribers of the fixture list: local part → tags. */
const PEOPLE: Record<string, ReadonlyArray<string>> = {
  a: ["a"],
  b: ["B"],
  ab: ["a", "b"],
  abc: ["a", "b", "c"],
  c: ["c"],
  none: [],
  gone: ["a", "b"]
}

describe.each(stores)("segment membership on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    /** A list holding PEOPLE, "gone" unsubscribed; its uuid, domain and subscriber uuids. */
    const fixture = Effect.gen(function*() {
      const { call } = yield* TestServer
      const list = (yield* call("POST", "/api/email-lists", {
        body: { name: unique("Members "), default_from_email: "a@example.com" }
      })).body.data.uuid as string
      const domain = `${unique("m")}.example`
      const uuids: Record<string, string> = {}
      for (const [local, tags] of Object.entries(PEOPLE)) {
        const r = yield* call("POST", `/api/email-lists/${list}/subscribers`, { body: { email: `${local}@${domain}`, tags } })
        expectStatus(r, 201)
        uuids[local] = r.body.data.uuid
      }
      expectStatus(yield* call("POST", `/api/subscribers/${uuids["gone"]}/unsubscribe`), 204)
      return { list, domain, uuids }
    })
    const segment = (list: string, body: Record<string, unknown>) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", `/api/email-lists/${list}/segments`, { body: { name: unique("seg"), ...body } })
        expectStatus(r, 201)
        return r.body.data.uuid as string
      })
    /** Local parts of the segment's members, sorted. */
    const members = (list: string, segmentUuid: string) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const params = query({ "filter[segment_uuid]": segmentUuid, per_page: 100 })
        const r = yield* call("GET", `/api/email-lists/${list}/subscribers?${params}`)
        expectStatus(r, 200)
        expect(r.body.meta.total).toBe(r.body.data.length)
        return r.body.data.map((s: { email: string }) => s.email.split("@")[0]).sort() as Array<string>
      })
    const check = (body: Record<string, unknown>, expected: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const { list } = yield* fixture
        expect(yield* members(list, yield* segment(list, body)), JSON.stringify(body)).toEqual([...expected].sort())
      })

    it.effect("without tag conditions a segment is every subscribed member of the list", () =>
      check({}, ["a", "b", "ab", "abc", "c", "none"]))

    it.effect("positive tags, any: members with at least one of them", () =>
      check({ positive_tags: ["a", "b"] }, ["a", "b", "ab", "abc"]))

    it.effect("positive tags, all required: members with every one of them", () =>
      check({ positive_tags: ["A", "b"], all_positive_tags_required: true }, ["ab", "abc"]))

    it.effect("negative tags, any: members with none of them", () =>
      check({ negative_tags: ["a", "b"] }, ["c", "none"]))

    it.effect("negative tags, all required: members without all of them (some are fine)", () =>
      check({ negative_tags: ["a", "b"], all_negative_tags_required: true }, ["a", "b", "c", "none"]))

    it.effect("positive and negative conditions combine", () =>
      Effect.gen(function*() {
        yield* check({ positive_tags: ["a"], negative_tags: ["c"] }, ["a", "ab"])
        yield* check({ positive_tags: ["a", "b"], all_positive_tags_required: true, negative_tags: ["c"] }, ["ab"])
        yield* check({ positive_tags: ["c"], negative_tags: ["a", "b"], all_negative_tags_required: true }, ["c"])
        yield* check({ positive_tags: ["c"], negative_tags: ["c"] }, [])
      }))

    it.effect("membership follows tag changes, unsubscribes, resubscribes and deletes", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { list, uuids } = yield* fixture
        const seg = yield* segment(list, { positive_tags: ["c"] })
        expect(yield* members(list, seg)).toEqual(["abc", "c"])
        expectStatus(yield* call("POST", `/api/subscribers/${uuids["none"]}/tags`, { body: { tags: ["C"] } }), 200)
        expectStatus(yield* call("DELETE", `/api/subscribers/${uuids["abc"]}/tags`, { body: { tags: ["c"] } }), 200)
        expect(yield* members(list, seg)).toEqual(["c", "none"])
        expectStatus(yield* call("POST", `/api/subscribers/${uuids["c"]}/unsubscribe`), 204)
        expect(yield* members(list, seg)).toEqual(["none"])
        expectStatus(yield* call("POST", `/api/subscribers/${uuids["c"]}/resubscribe`), 204)
        expect(yield* members(list, seg)).toEqual(["c", "none"])
        expectStatus(yield* call("DELETE", `/api/subscribers/${uuids["none"]}`), 204)
        expect(yield* members(list, seg)).toEqual(["c"])
      }))

    it.effect("editing a segment's conditions changes its members", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { list } = yield* fixture
        const seg = yield* segment(list, { positive_tags: ["a", "b"], all_positive_tags_required: true })
        expect(yield* members(list, seg)).toEqual(["ab", "abc"])
        const put = yield* call("PUT", `/api/email-lists/${list}/segments/${seg}`, { body: { name: "now", negative_tags: ["a"] } })
        expectStatus(put, 200)
        expect(yield* members(list, seg)).toEqual(["b", "c", "none"])
      }))

    it.effect("a renamed tag keeps its segment members", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { list } = yield* fixture
        const seg = yield* segment(list, { positive_tags: ["c"] })
        const tag = (yield* call("GET", `/api/email-lists/${list}/tags?filter[search]=c`)).body.data[0]
        expectStatus(yield* call("PUT", `/api/email-lists/${list}/tags/${tag.uuid}`, { body: { name: "renamed" } }), 200)
        expect(yield* members(list, seg)).toEqual(["abc", "c"])
      }))

    it.effect("an unknown, garbage or other list's segment uuid gives an empty collection", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { list } = yield* fixture
        const { list: other } = yield* fixture
        const foreign = yield* segment(other, {})
        for (const uuid of [crypto.randomUUID(), "abc", foreign]) {
          const r = yield* call("GET", `/api/email-lists/${list}/subscribers?${query({ "filter[segment_uuid]": uuid })}`)
          expectStatus(r, 200)
          expect(r.body.data).toEqual([])
          expect(r.body.meta.total).toBe(0)
        }
        expect((yield* members(other, foreign)).length).toBe(6)
      }))
  })
})
