import { describe, expect, layer } from "@effect/vitest"
import { MemoryMailbox } from "@mailroom/core/testing"
import { Effect, Option } from "effect"
import { expectMessageOnly, expectStatus, query, TIMESTAMP, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const API_FIELDS = [
  "uuid", "transport_message_id", "campaign_uuid", "automation_mail_uuid", "transactional_mail_log_item_uuid",
  "subscriber_uuid", "sent_at", "failed_at", "failure_reason", "open_count", "click_count", "first_opened_at",
  "last_opened_at", "first_clicked_at", "last_clicked_at", "created_at", "updated_at"
]
const MISSING = "00000000-0000-4000-8000-000000000000"

interface SendRow {
  readonly uuid: string
  readonly campaign_uuid: string
  readonly subscriber_uuid: string
  readonly sent_at: string
}

describe.each(stores)("sends on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const mailbox = Effect.map(Effect.serviceOption(MemoryMailbox), Option.getOrThrowWith(() => new Error("no MemoryMailbox")))
    /** A list with ada and bob subscribed and carl unsubscribed; the subscriber uuids by name. */
    const audience = Effect.gen(function*() {
      const { call } = yield* TestServer
      const domain = `${unique("s")}.example`
      const list = yield* call("POST", "/api/email-lists", { body: { name: unique("Sends "), default_from_email: `n@${domain}` } })
      expectStatus(list, 201)
      const uuid = list.body.data.uuid as string
      const people: Record<string, string> = {}
      for (const local of ["ada", "bob", "carl"]) {
        const r = yield* call("POST", `/api/email-lists/${uuid}/subscribers`, { body: { email: `${local}@${domain}` } })
        expectStatus(r, 201)
        people[local] = r.body.data.uuid
      }
      expectStatus(yield* call("POST", `/api/subscribers/${people["carl"]}/unsubscribe`), 204)
      return { list: uuid, people }
    })
    /** Creates, sends and delivers a campaign; its uuid. */
    const sendCampaign = (list: string) =>
      Effect.gen(function*() {
        const { call, deliver } = yield* TestServer
        const c = yield* call("POST", "/api/campaigns", { body: { name: unique("Mail "), email_list_uuid: list, html: "<p>hi</p>" } })
        expectStatus(c, 201)
        expectStatus(yield* call("POST", `/api/campaigns/${c.body.data.uuid}/send`), 204)
        yield* deliver
        return c.body.data.uuid as string
      })
    const list = (params: Record<string, string | number>) =>
      Effect.gen(function*() {
        const r = yield* (yield* TestServer).call("GET", `/api/sends?${query(params)}`)
        expectStatus(r, 200)
        return r.body as { data: Array<SendRow>; meta: { total: number; links: unknown } }
      })

    it.effect("filter[campaign_uuid] lists one sent send per eligible recipient with the api.md fields", () =>
      Effect.gen(function*() {
        const { list: listUuid, people } = yield* audience
        const campaign = yield* sendCampaign(listUuid)
        const body = yield* list({ "filter[campaign_uuid]": campaign })
        expect(body.meta.total).toBe(2)
        expect(Array.isArray(body.meta.links)).toBe(true)
        expect(body.data.map((s) => s.subscriber_uuid).sort()).toEqual([people["ada"], people["bob"]].sort())
        for (const send of body.data) {
          expect(Object.keys(send)).toEqual(expect.arrayContaining(API_FIELDS))
          expect(send.uuid).toMatch(UUID)
          expect(send).toMatchObject({
            campaign_uuid: campaign,
            automation_mail_uuid: null,
            transactional_mail_log_item_uuid: null,
            failed_at: null,
            failure_reason: null
          })
          expect(send.sent_at).toMatch(TIMESTAMP)
          for (const key of ["created_at", "updated_at"] as const) expect((send as any)[key]).toMatch(TIMESTAMP)
        }
      }))

    it.effect("GET /sends/{uuid} returns the send; unknown or malformed ids answer 404", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { list: listUuid } = yield* audience
        const campaign = yield* sendCampaign(listUuid)
        const [send] = (yield* list({ "filter[campaign_uuid]": campaign })).data
        const r = yield* call("GET", `/api/sends/${send!.uuid}`)
        expectStatus(r, 200)
        expect(Object.keys(r.body)).toEqual(["data"])
        expect(r.body.data).toEqual(send)
        for (const id of [MISSING, "nope", "1"]) expectMessageOnly(yield* call("GET", `/api/sends/${id}`), 404)
      }))

    it.effect("DELETE answers 204, then the send is gone from reads and lists", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { list: listUuid } = yield* audience
        const campaign = yield* sendCampaign(listUuid)
        const [first, second] = (yield* list({ "filter[campaign_uuid]": campaign })).data
        const r = yield* call("DELETE", `/api/sends/${first!.uuid}`)
        expectStatus(r, 204)
        expect(r.text).toBe("")
        expectMessageOnly(yield* call("GET", `/api/sends/${first!.uuid}`), 404)
        expectMessageOnly(yield* call("DELETE", `/api/sends/${first!.uuid}`), 404)
        expectMessageOnly(yield* call("DELETE", `/api/sends/${MISSING}`), 404)
        expect((yield* list({ "filter[campaign_uuid]": campaign })).data.map((s) => s.uuid)).toEqual([second!.uuid])
      }))

    it.effect("filter[subscriber_uuid] lists that subscriber's sends, newest first by default; sort=sent_at reverses", () =>
      Effect.gen(function*() {
        const { list: listUuid, people } = yield* audience
        const first = yield* sendCampaign(listUuid)
        yield* Effect.sleep("20 millis")
        const second = yield* sendCampaign(listUuid)
        const ada = { "filter[subscriber_uuid]": people["ada"]! }
        const byDefault = (yield* list(ada)).data
        expect(byDefault.map((s) => s.campaign_uuid)).toEqual([second, first])
        expect(byDefault.every((s) => s.subscriber_uuid === people["ada"])).toBe(true)
        expect(byDefault[0]!.sent_at >= byDefault[1]!.sent_at).toBe(true)
        expect((yield* list({ ...ada, sort: "-sent_at" })).data.map((s) => s.campaign_uuid)).toEqual([second, first])
        expect((yield* list({ ...ada, sort: "sent_at" })).data.map((s) => s.campaign_uuid)).toEqual([first, second])
        expect((yield* list({ "filter[subscriber_uuid]": people["carl"]! })).meta.total).toBe(0)
        const both = yield* list({ ...ada, "filter[campaign_uuid]": second })
        expect(both.data.map((s) => s.campaign_uuid)).toEqual([second])
        expect((yield* list({ "filter[campaign_uuid]": MISSING })).meta.total).toBe(0)
      }))

    it.effect("deleting a campaign deletes its sends", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { list: listUuid } = yield* audience
        const campaign = yield* sendCampaign(listUuid)
        const [send] = (yield* list({ "filter[campaign_uuid]": campaign })).data
        expectStatus(yield* call("DELETE", `/api/campaigns/${campaign}`), 204)
        expect((yield* list({ "filter[campaign_uuid]": campaign })).meta.total).toBe(0)
        expectMessageOnly(yield* call("GET", `/api/sends/${send!.uuid}`), 404)
      }))

    it.effect("deleting a subscriber deletes its sends, deleting the list the rest; the campaign's sent count keeps", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { list: listUuid, people } = yield* audience
        const campaign = yield* sendCampaign(listUuid)
        const ada = (yield* list({ "filter[subscriber_uuid]": people["ada"]! })).data[0]!
        expectStatus(yield* call("DELETE", `/api/subscribers/${people["ada"]}`), 204)
        expectMessageOnly(yield* call("GET", `/api/sends/${ada.uuid}`), 404)
        expect((yield* list({ "filter[campaign_uuid]": campaign })).meta.total).toBe(1)
        expectStatus(yield* call("DELETE", `/api/email-lists/${listUuid}`), 204)
        expect((yield* list({ "filter[campaign_uuid]": campaign })).meta.total).toBe(0)
        const kept = yield* call("GET", `/api/campaigns/${campaign}`)
        expectStatus(kept, 200)
        expect(kept.body.data.sent_to_number_of_subscribers).toBe("2")
      }))

    it.effect("filter[status] lists pending, sent or failed sends, combined with the other filters; the counts add up", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { list: listUuid, people } = yield* audience
        // both mails of one campaign wait for a retry (451), one of the other's fails for good (550)
        yield* (yield* mailbox).failNext(2, false)
        const held = yield* sendCampaign(listUuid)
        yield* (yield* mailbox).failNext(1, true)
        const delivered = yield* sendCampaign(listUuid)
        const total = (params: Record<string, string>) => Effect.map(list(params), (body) => body.meta.total)
        const uuids = (params: Record<string, string>) => Effect.map(list(params), (body) => body.data.map((send) => send.uuid).sort())

        const byStatus = { "filter[campaign_uuid]": delivered }
        expect(yield* total({ ...byStatus, "filter[status]": "sent" })).toBe(1)
        expect(yield* total({ ...byStatus, "filter[status]": "failed" })).toBe(1)
        expect(yield* total({ ...byStatus, "filter[status]": "pending" })).toBe(0)
        const [failed] = (yield* list({ ...byStatus, "filter[status]": "failed" })).data as unknown as Array<{ failed_at: string; sent_at: null }>
        expect(failed).toMatchObject({ sent_at: null, failed_at: expect.stringMatching(TIMESTAMP) })
        expect((yield* call("GET", `/api/campaigns/${delivered}`)).body.data.sent_to_number_of_subscribers).toBe("1")
        expect(yield* uuids({ "filter[campaign_uuid]": held, "filter[status]": "pending" }))
          .toEqual(yield* uuids({ "filter[campaign_uuid]": held }))
        expect(yield* total({ "filter[campaign_uuid]": held, "filter[status]": " Pending " })).toBe(2)
        expect(yield* total({ "filter[campaign_uuid]": held, "filter[status]": "" })).toBe(2)
        expect(yield* total({ "filter[subscriber_uuid]": people["ada"]!, "filter[status]": "pending" })).toBe(1)
        const counts = yield* Effect.forEach(["pending", "sent", "failed"], (status) => total({ "filter[campaign_uuid]": held, "filter[status]": status }))
        expect(counts).toEqual([2, 0, 0])
      }))

    it.effect("an unknown sort, filter or filter[status] value answers 400 {message}", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        expectMessageOnly(yield* call("GET", "/api/sends?sort=created_at"), 400)
        expectMessageOnly(yield* call("GET", `/api/sends?${query({ "filter[email]": "a@b.c" })}`), 400)
        const bad = yield* call("GET", `/api/sends?${query({ "filter[status]": "bounced", "filter[campaign_uuid]": MISSING })}`)
        expectMessageOnly(bad, 400)
        expect(bad.body.message).toBe("Requested filter[status] value `bounced` is not allowed. Allowed value(s) are `pending`, `sent`, `failed`.")
      }))
  })
})
