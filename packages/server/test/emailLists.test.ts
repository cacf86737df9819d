import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, TIMESTAMP, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Every field of a list created with only a name and a from address (behaviors.md section 4). */
const defaults = (name: string, from: string, fromName: string | null = null) => ({
  name,
  active_subscribers_count: 0,
  campaigns_feed_enabled: false,
  default_from_email: from,
  default_from_name: fromName,
  default_reply_to_email: from,
  default_reply_to_name: fromName,
  allow_form_subscriptions: false,
  honeypot_field: null,
  redirect_after_subscribed: null,
  redirect_after_already_subscribed: null,
  redirect_after_subscription_pending: null,
  redirect_after_unsubscribed: null,
  requires_confirmation: false,
  confirmation_mailable_class: null,
  campaign_mailer: "default",
  automation_mailer: "default",
  transactional_mailer: "default",
  report_recipients: null,
  report_campaign_sent: false,
  report_campaign_summary: false,
  report_email_list_summary: false,
  email_list_summary_sent_at: null
})

const BOOLEANS = [
  "campaigns_feed_enabled",
  "allow_form_subscriptions",
  "requires_confirmation",
  "report_campaign_sent",
  "report_campaign_summary",
  "report_email_list_summary"
]

describe.each(stores)("email lists on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const post = (body: Record<string, unknown>) =>
      Effect.flatMap(TestServer, ({ call }) => call("POST", "/api/email-lists", { body }))
    const valid = (extra: Record<string, unknown> = {}) => ({
      name: unique("List "),
      default_from_email: "news@example.com",
      ...extra
    })

    it.effect("POST answers 201 with ids and every field at its default", () =>
      Effect.gen(function*() {
        const name = unique("Defaults ")
        const r = yield* post({ name, default_from_email: "news@example.com" })
        expectStatus(r, 201)
        expect(Object.keys(r.body)).toEqual(["data"])
        const list = r.body.data
        expect(Number.isInteger(list.id)).toBe(true)
        expect(list.uuid).toMatch(UUID)
        expect(list.created_at).toMatch(TIMESTAMP)
        expect(list.updated_at).toMatch(TIMESTAMP)
        const { id: _id, uuid: _uuid, created_at: _c, updated_at: _u, ...rest } = list
        expect(rest).toEqual(defaults(name, "news@example.com"))
        const named = yield* post({ name, default_from_email: "a@example.com", default_from_name: "Alice" })
        expectStatus(named, 201)
        expect(named.body.data).toMatchObject(defaults(name, "a@example.com", "Alice"))
      }))

    it.effect("name and a valid default_from_email are required", () =>
      Effect.gen(function*() {
        expectValidation(yield* post({ default_from_email: "a@example.com" }), ["name"])
        expectValidation(yield* post({ name: "", default_from_email: "a@example.com" }), ["name"])
        expectValidation(yield* post({ name: "   ", default_from_email: "a@example.com" }), ["name"])
        expectValidation(yield* post({ name: 5, default_from_email: "a@example.com" }), ["name"])
        expectValidation(yield* post({ name: "x".repeat(256), default_from_email: "a@example.com" }), ["name"])
        for (const from of [undefined, "", "nope", "a@", "@b.c", null, 42]) {
          const body = from === undefined ? { name: "x" } : { name: "x", default_from_email: from }
          expectValidation(yield* post(body), ["default_from_email"])
        }
        expectValidation(yield* post({}), ["name", "default_from_email"])
      }))

    it.effect("report_recipients is required when a report flag is on and must hold valid addresses", () =>
      Effect.gen(function*() {
        for (const flag of ["report_campaign_sent", "report_campaign_summary", "report_email_list_summary"]) {
          expectValidation(yield* post(valid({ [flag]: true })), ["report_recipients"])
          expectValidation(yield* post(valid({ [flag]: true, report_recipients: "" })), ["report_recipients"])
          const ok = yield* post(valid({ [flag]: true, report_recipients: "a@example.com, b@example.org" }))
          expectStatus(ok, 201)
          expect(ok.body.data[flag]).toBe(true)
          expect(ok.body.data.report_recipients).toMatch(/^a@example\.com, ?b@example\.org$/)
        }
        for (const recipients of ["a@example.com,bad", "bad", "a@example.com;b@example.com"]) {
          expectValidation(yield* post(valid({ report_recipients: recipients })), ["report_recipients"])
          expectValidation(
            yield* post(valid({ report_campaign_sent: true, report_recipients: recipients })),
            ["report_recipients"]
          )
        }
        const off = yield* post(valid({ report_recipients: "boss@example.com" }))
        expectStatus(off, 201)
        expect(off.body.data.report_recipients).toBe("boss@example.com")
      }))

    it.effect("a mailer other than \"default\" answers 422 on that field", () =>
      Effect.gen(function*() {
        for (const field of ["campaign_mailer", "automation_mailer", "transactional_mailer"]) {
          expectValidation(yield* post(valid({ [field]: "postmark" })), [field])
          const ok = yield* post(valid({ [field]: "default" }))
          expectStatus(ok, 201)
          expect(ok.body.data[field]).toBe("default")
        }
      }))

    it.effect("reply-to fields are accepted under their names and the aliases default_reply_email/_name", () =>
      Effect.gen(function*() {
        const direct = yield* post(valid({ default_reply_to_email: "r@example.com", default_reply_to_name: "Rita" }))
        expectStatus(direct, 201)
        expect(direct.body.data).toMatchObject({ default_reply_to_email: "r@example.com", default_reply_to_name: "Rita" })
        const alias = yield* post(valid({ default_reply_email: "q@example.com", default_reply_name: "Quinn" }))
        expectStatus(alias, 201)
        expect(alias.body.data).toMatchObject({ default_reply_to_email: "q@example.com", default_reply_to_name: "Quinn" })
        expectValidation(yield* post(valid({ default_reply_to_email: "not an email" })), ["default_reply_to_email"])
      }))

    it.effect("booleans accept true/false and 1/0 and reject other values", () =>
      Effect.gen(function*() {
        for (const field of BOOLEANS) {
          const extra = field.startsWith("report_") ? { report_recipients: "r@example.com" } : {}
          for (const [given, expected] of [[true, true], [1, true], [false, false], [0, false]] as const) {
            const r = yield* post(valid({ ...extra, [field]: given }))
            expect(r.status, `${field}=${given}: ${r.text}`).toBe(201)
            expect(r.body.data[field], `${field}=${given}`).toBe(expected)
          }
          for (const bad of ["yes", 2, "maybe"]) {
            expectValidation(yield* post(valid({ ...extra, [field]: bad })), [field])
          }
        }
      }))

    it.effect("PUT is a full replace: omitted fields return to their defaults", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const created = (yield* post(valid({
          default_from_name: "Old",
          default_reply_to_email: "reply@example.com",
          requires_confirmation: true,
          allow_form_subscriptions: true,
          campaigns_feed_enabled: true,
          report_campaign_sent: true,
          report_recipients: "r@example.com",
          honeypot_field: "hp",
          redirect_after_subscribed: "https://example.com/thanks"
        }))).body.data
        expect(created.requires_confirmation).toBe(true)
        yield* Effect.sleep("15 millis")
        const name = unique("Renamed ")
        const r = yield* call("PUT", `/api/email-lists/${created.uuid}`, {
          body: { name, default_from_email: "new@example.com" }
        })
        expectStatus(r, 200)
        expect(r.body.data).toMatchObject({ id: created.id, uuid: created.uuid, created_at: created.created_at })
        expect(r.body.data).toMatchObject(defaults(name, "new@example.com"))
        expect(r.body.data.updated_at > created.updated_at).toBe(true)
        const read = yield* call("GET", `/api/email-lists/${created.uuid}`)
        expect(read.body).toEqual(r.body)
        expectValidation(yield* call("PUT", `/api/email-lists/${created.uuid}`, { body: { name } }), [
          "default_from_email"
        ])
        expect((yield* call("GET", `/api/email-lists/${created.uuid}`)).body).toEqual(r.body)
      }))

    it.effect("GET by uuid; DELETE answers 204, then 404", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const created = (yield* post(valid())).body
        const read = yield* call("GET", `/api/email-lists/${created.data.uuid}`)
        expectStatus(read, 200)
        expect(read.body).toEqual(created)
        const del = yield* call("DELETE", `/api/email-lists/${created.data.uuid}`)
        expectStatus(del, 204)
        expect(del.text).toBe("")
        expectMessageOnly(yield* call("GET", `/api/email-lists/${created.data.uuid}`), 404)
        expectMessageOnly(yield* call("DELETE", `/api/email-lists/${created.data.uuid}`), 404)
        expectMessageOnly(
          yield* call("PUT", `/api/email-lists/${created.data.uuid}`, { body: valid() }),
          404
        )
        for (const id of [crypto.randomUUID(), "abc", "99999999999999", "%20"]) {
          expectMessageOnly(yield* call("GET", `/api/email-lists/${id}`), 404)
          expectMessageOnly(yield* call("PUT", `/api/email-lists/${id}`, { body: valid() }), 404)
          expectMessageOnly(yield* call("DELETE", `/api/email-lists/${id}`), 404)
        }
      }))
  })
})
