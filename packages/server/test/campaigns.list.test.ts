import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, query, unique } from "./expectations.js"
import { APP_URL, stores, TestServer, TestServerLive } from "./TestServer.js"

describe.each(stores)("GET campaigns on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const newList = Effect.gen(function*() {
      const { call } = yield* TestServer
      const r = yield* call("POST", "/api/email-lists", { body: { name: unique("List "), default_from_email: "n@example.com" } })
      expectStatus(r, 201)
      return r.body.data as { id: number; uuid: string }
    })
    const create = (list: string, name: string, body: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/campaigns", { body: { name, email_list_uuid: list, html: "<p>x</p>", ...body } })
        expectStatus(r, 201)
        return r.body.data.uuid as string
      })
    const act = (uuid: string, action: string) =>
      Effect.gen(function*() {
        expectStatus(yield* (yield* TestServer).call("POST", `/api/campaigns/${uuid}/${action}`), 204)
      })
    const list = (params: Record<string, string | number>) =>
      Effect.gen(function*() {
        const r = yield* (yield* TestServer).call("GET", `/api/campaigns?${query({ per_page: 100, ...params })}`)
        expectStatus(r, 200)
        return r.body
      })
    const uuids = (params: Record<string, string | number>) =>
      Effect.map(list(params), (body) => body.data.map((c: { uuid: string }) => c.uuid) as Array<string>)

    it.effect("the default order (-sent) puts unscheduled drafts first, then newest scheduled or sent", () =>
      Effect.gen(function*() {
        const { deliver } = yield* TestServer
        const l = yield* newList
        const sent = yield* create(l.uuid, "sent")
        yield* act(sent, "send")
        yield* deliver
        const draftA = yield* create(l.uuid, "draft a")
        yield* Effect.sleep("10 millis")
        const draftB = yield* create(l.uuid, "draft b")
        const soon = yield* create(l.uuid, "soon", { schedule_at: "2090-01-01 00:00:00" })
        const later = yield* create(l.uuid, "later", { schedule_at: "2095-01-01 00:00:00" })
        const scope = { "filter[emailList.uuid]": l.uuid }
        const body = yield* list(scope)
        expect(body.meta.total).toBe(5)
        expect(body.data.map((c: { uuid: string }) => c.uuid)).toEqual([draftB, draftA, later, soon, sent])
        expect(yield* uuids({ ...scope, sort: "-sent" })).toEqual([draftB, draftA, later, soon, sent])
        expect(yield* uuids({ ...scope, sort: "sent" })).toEqual([sent, soon, later, draftA, draftB])
      }))

    it.effect("sort by name and -name ignores case; filter[search] matches part of the name in any case", () =>
      Effect.gen(function*() {
        const l = yield* newList
        const token = unique("tok")
        const beta = yield* create(l.uuid, `${token} beta`)
        const alpha = yield* create(l.uuid, `${token} Alpha`)
        const gamma = yield* create(l.uuid, `${token} gamma`)
        yield* create(l.uuid, "unrelated")
        const search = { "filter[search]": token.slice(2).toUpperCase() }
        expect(yield* uuids({ ...search, sort: "name" })).toEqual([alpha, beta, gamma])
        expect(yield* uuids({ ...search, sort: "-name" })).toEqual([gamma, beta, alpha])
        expect(yield* uuids({ "filter[search]": `${token} GAM` })).toEqual([gamma])
        expect(yield* uuids({ "filter[search]": unique("absent") })).toEqual([])
      }))

    it.effect("filter[status] matches each status exactly; an unknown value is ignored", () =>
      Effect.gen(function*() {
        const { call, deliver } = yield* TestServer
        const l = yield* newList
        const gone = yield* newList
        const token = unique("st")
        const sent = yield* create(l.uuid, `${token} sent`)
        yield* act(sent, "send")
        const cancelled = yield* create(gone.uuid, `${token} cancelled`)
        yield* act(cancelled, "send")
        expectStatus(yield* call("DELETE", `/api/email-lists/${gone.uuid}`), 204)
        yield* deliver
        const draft = yield* create(l.uuid, `${token} draft`)
        const scheduled = yield* create(l.uuid, `${token} scheduled`, { schedule_at: "2099-01-01 00:00:00" })
        const sending = yield* create(l.uuid, `${token} sending`)
        yield* act(sending, "send")
        const paused = yield* create(l.uuid, `${token} paused`)
        yield* act(paused, "send")
        yield* act(paused, "pause")
        const expected = { draft, scheduled, sending, paused, sent, cancelled }
        for (const [status, uuid] of Object.entries(expected)) {
          const body = yield* list({ "filter[search]": token, "filter[status]": status })
          expect(body.data.map((c: { uuid: string }) => c.uuid), status).toEqual([uuid])
          expect(body.data[0].status).toBe(status)
        }
        expect((yield* list({ "filter[search]": token, "filter[status]": "bogus" })).meta.total).toBe(6)
        // leave nothing in progress for the other tests
        yield* act(sending, "pause")
      }))

    it.effect("filter[email_list_id] (integer id), filter[emailList.uuid] and filter[contentItem.template.uuid]", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const one = yield* newList
        const two = yield* newList
        const t = yield* call("POST", "/api/templates", { body: { name: unique("tpl"), html: "<p>[[[x]]]</p>" } })
        expectStatus(t, 201)
        const a = yield* create(one.uuid, "a")
        const b = yield* create(one.uuid, "b", { html: null, template_uuid: t.body.data.uuid })
        const c = yield* create(two.uuid, "c", { html: null, template_uuid: t.body.data.uuid })
        expect((yield* uuids({ "filter[email_list_id]": one.id, sort: "name" }))).toEqual([a, b])
        expect((yield* uuids({ "filter[emailList.uuid]": two.uuid }))).toEqual([c])
        expect((yield* uuids({ "filter[contentItem.template.uuid]": t.body.data.uuid, sort: "name" }))).toEqual([b, c])
        expect((yield* uuids({ "filter[contentItem.template.uuid]": t.body.data.uuid, "filter[email_list_id]": two.id })))
          .toEqual([c])
        expect((yield* uuids({ "filter[email_list_id]": 987654321 }))).toEqual([])
      }))

    it.effect("sort by sent_to_number_of_subscribers and unique_open_count follows the statistics", () =>
      Effect.gen(function*() {
        const { call, deliver, mails } = yield* TestServer
        const l = yield* newList
        const domain = `${unique("o")}.example`
        for (const [local, tags] of [["a", ["few"]], ["b", []], ["c", []]] as const) {
          expectStatus(yield* call("POST", `/api/email-lists/${l.uuid}/subscribers`, { body: { email: `${local}@${domain}`, tags } }), 201)
        }
        const few = yield* call("POST", `/api/email-lists/${l.uuid}/segments`, { body: { name: "few", positive_tags: ["few"] } })
        const none = yield* call("POST", `/api/email-lists/${l.uuid}/segments`, {
          body: { name: "none", positive_tags: ["few"], negative_tags: ["few"] }
        })
        const all = yield* create(l.uuid, "all")
        const one = yield* create(l.uuid, "one", { segment_uuid: few.body.data.uuid })
        const zero = yield* create(l.uuid, "zero", { segment_uuid: none.body.data.uuid })
        for (const uuid of [all, one, zero]) yield* act(uuid, "send")
        yield* deliver
        const scope = { "filter[emailList.uuid]": l.uuid }
        expect(yield* uuids({ ...scope, sort: "sent_to_number_of_subscribers" })).toEqual([zero, one, all])
        expect(yield* uuids({ ...scope, sort: "-sent_to_number_of_subscribers" })).toEqual([all, one, zero])
        // the one recipient of "one" opens the mail
        const mail = (yield* mails).find((m) => m.to.email === `a@${domain}` && m.html.includes("/t/o/") && m.subject === "one")!
        const pixel = /src="([^"]+\/t\/o\/[^"]+)"/.exec(mail.html)![1]!
        expect(pixel.startsWith(`${APP_URL}/t/o/`)).toBe(true)
        expect((yield* call("GET", pixel.slice(APP_URL.length), { token: null })).status).toBeLessThan(400)
        const opened = (yield* list(scope)).data.find((c: { uuid: string }) => c.uuid === one)
        expect(opened).toMatchObject({ unique_open_count: "1", open_count: "1", open_rate: 10000 })
        expect((yield* uuids({ ...scope, sort: "-unique_open_count" }))[0]).toBe(one)
        expect((yield* uuids({ ...scope, sort: "unique_open_count" }))[2]).toBe(one)
      }))

    it.effect("an unknown sort or filter answers 400 with a message naming the allowed ones", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const sort = yield* call("GET", "/api/campaigns?sort=created_at")
        expectMessageOnly(sort, 400)
        expect(sort.body.message).toContain("sent_to_number_of_subscribers")
        const filter = yield* call("GET", `/api/campaigns?${query({ "filter[subject]": "x" })}`)
        expectMessageOnly(filter, 400)
        expect(filter.body.message).toContain("emailList.uuid")
      }))
  })
})
