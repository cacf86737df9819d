import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const MISSING = "00000000-0000-4000-8000-000000000000"

describe.each(stores)("campaign pause and resume on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    /** A list with two subscribed members (tag vip on the first) on a domain of their own. */
    const audience = Effect.gen(function*() {
      const { call } = yield* TestServer
      const domain = `${unique("p")}.example`
      const list = yield* call("POST", "/api/email-lists", { body: { name: unique("Pause "), default_from_email: `n@${domain}` } })
      expectStatus(list, 201)
      const uuid = list.body.data.uuid as string
      for (const [local, tags] of [["one", ["vip"]], ["two", []]] as const) {
        const r = yield* call("POST", `/api/email-lists/${uuid}/subscribers`, { body: { email: `${local}@${domain}`, tags } })
        expectStatus(r, 201)
      }
      return { list: uuid, domain }
    })
    const campaign = (list: string, body: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/campaigns", { body: { name: unique("C "), email_list_uuid: list, html: "<p>hi</p>", ...body } })
        expectStatus(r, 201)
        return r.body.data.uuid as string
      })
    const act = (uuid: string, action: "send" | "pause" | "resume") =>
      Effect.flatMap(TestServer, ({ call }) => call("POST", `/api/campaigns/${uuid}/${action}`))
    const status = (uuid: string) =>
      Effect.gen(function*() {
        const r = yield* (yield* TestServer).call("GET", `/api/campaigns/${uuid}`)
        expectStatus(r, 200)
        return r.body.data.status as string
      })
    const mailCount = (domain: string) =>
      Effect.map(Effect.flatMap(TestServer, ({ mails }) => mails), (all) => all.filter((m) => m.to.email.endsWith(`@${domain}`)).length)

    it.effect("pause or resume of a draft or scheduled campaign answers 409 {message} and changes nothing", () =>
      Effect.gen(function*() {
        const { list } = yield* audience
        const draft = yield* campaign(list)
        const scheduled = yield* campaign(list, { schedule_at: "2099-01-01 00:00:00" })
        for (const uuid of [draft, scheduled]) {
          expectMessageOnly(yield* act(uuid, "pause"), 409)
          expectMessageOnly(yield* act(uuid, "resume"), 409)
        }
        expect(yield* status(draft)).toBe("draft")
        expect(yield* status(scheduled)).toBe("scheduled")
      }))

    it.effect("pause and resume of an unknown campaign answer 404", () =>
      Effect.gen(function*() {
        for (const id of [MISSING, "nope"]) {
          expectMessageOnly(yield* act(id, "pause"), 404)
          expectMessageOnly(yield* act(id, "resume"), 404)
        }
      }))

    it.effect("a paused campaign sends nothing until resumed, then completes", () =>
      Effect.gen(function*() {
        const { call, deliver } = yield* TestServer
        const { domain, list } = yield* audience
        const uuid = yield* campaign(list)
        expectStatus(yield* act(uuid, "send"), 204)
        const paused = yield* act(uuid, "pause")
        expectStatus(paused, 204)
        expect(paused.text).toBe("")
        expect(yield* status(uuid)).toBe("paused")
        expectStatus(yield* act(uuid, "pause"), 204)
        expect(yield* status(uuid)).toBe("paused")
        yield* deliver
        expect(yield* status(uuid)).toBe("paused")
        expect(yield* mailCount(domain)).toBe(0)
        const sends = yield* call("GET", `/api/sends?filter[campaign_uuid]=${uuid}`)
        expectStatus(sends, 200)
        expect(sends.body.data.filter((s: { sent_at: string | null }) => s.sent_at !== null)).toEqual([])
        expectStatus(yield* act(uuid, "resume"), 204)
        expect(yield* status(uuid)).toBe("sending")
        expectStatus(yield* act(uuid, "resume"), 204)
        expect(yield* status(uuid)).toBe("sending")
        yield* deliver
        expect(yield* status(uuid)).toBe("sent")
        expect(yield* mailCount(domain)).toBe(2)
      }))

    it.effect("a paused campaign cannot be sent again with POST send", () =>
      Effect.gen(function*() {
        const { list } = yield* audience
        const uuid = yield* campaign(list)
        expectStatus(yield* act(uuid, "send"), 204)
        expectStatus(yield* act(uuid, "pause"), 204)
        expectMessageOnly(yield* act(uuid, "send"), 400)
        expect(yield* status(uuid)).toBe("paused")
      }))

    it.effect("pause and resume of a sent campaign answer 409", () =>
      Effect.gen(function*() {
        const { deliver } = yield* TestServer
        const { list } = yield* audience
        const uuid = yield* campaign(list)
        expectStatus(yield* act(uuid, "send"), 204)
        yield* deliver
        expect(yield* status(uuid)).toBe("sent")
        expectMessageOnly(yield* act(uuid, "resume"), 409)
        expectMessageOnly(yield* act(uuid, "pause"), 409)
        expect(yield* status(uuid)).toBe("sent")
      }))

    it.effect("resume answers 409 when the campaign's segment was deleted, and the campaign stays paused", () =>
      Effect.gen(function*() {
        const { call, deliver } = yield* TestServer
        const { domain, list } = yield* audience
        const seg = yield* call("POST", `/api/email-lists/${list}/segments`, { body: { name: "vips", positive_tags: ["vip"] } })
        expectStatus(seg, 201)
        const uuid = yield* campaign(list, { segment_uuid: seg.body.data.uuid })
        expectStatus(yield* act(uuid, "send"), 204)
        expectStatus(yield* act(uuid, "pause"), 204)
        expectStatus(yield* call("DELETE", `/api/email-lists/${list}/segments/${seg.body.data.uuid}`), 204)
        expectMessageOnly(yield* act(uuid, "resume"), 409)
        expect(yield* status(uuid)).toBe("paused")
        yield* deliver
        expect(yield* mailCount(domain)).toBe(0)
      }))
  })
})
