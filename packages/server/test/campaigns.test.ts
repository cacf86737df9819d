import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, TIMESTAMP, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** Every field api.md lists for a campaign, plus the extras the brief asks for. */
const API_FIELDS = [
  "uuid", "name", "email_list_uuid", "from_email", "from_name", "status", "html", "structured_html", "email_html",
  "webview_html", "mailable_class", "sent_to_number_of_subscribers", "segment_class", "segment_description",
  "open_count", "unique_open_count", "open_rate", "click_count", "unique_click_count", "click_rate",
  "unsubscribe_count", "unsubscribe_rate", "bounce_count", "bounce_rate", "sent_at", "statistics_calculated_at",
  "scheduled_at", "last_modified_at", "summary_mail_sent_at", "created_at", "updated_at", "template_uuid"
]
const MISSING = "00000000-0000-4000-8000-000000000000"

describe.each(stores)("campaigns CRUD on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const newList = Effect.gen(function*() {
      const { call } = yield* TestServer
      const r = yield* call("POST", "/api/email-lists", { body: { name: unique("Camp "), default_from_email: "news@example.com" } })
      expectStatus(r, 201)
      return r.body.data.uuid as string
    })
    const newSegment = (list: string, name = unique("Seg ")) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", `/api/email-lists/${list}/segments`, { body: { name } })
        expectStatus(r, 201)
        return r.body.data.uuid as string
      })
    const post = (body: unknown) => Effect.flatMap(TestServer, ({ call }) => call("POST", "/api/campaigns", { body }))
    const create = (body: Record<string, unknown>) =>
      Effect.gen(function*() {
        const r = yield* post(body)
        expectStatus(r, 201)
        return r.body.data
      })
    const get = (uuid: string) => Effect.flatMap(TestServer, ({ call }) => call("GET", `/api/campaigns/${uuid}`))
    const put = (uuid: string, body: unknown) => Effect.flatMap(TestServer, ({ call }) => call("PUT", `/api/campaigns/${uuid}`, { body }))

    it.effect("POST answers 201 with every campaign field, the defaults and the api.md types", () =>
      Effect.gen(function*() {
        const list = yield* newList
        const name = unique("Launch ")
        const r = yield* post({ name, email_list_uuid: list })
        expectStatus(r, 201)
        expect(Object.keys(r.body)).toEqual(["data"])
        const c = r.body.data
        expect(Object.keys(c)).toEqual(expect.arrayContaining(API_FIELDS))
        expect(c.uuid).toMatch(UUID)
        expect(c).toMatchObject({
          name,
          email_list_uuid: list,
          template_uuid: null,
          status: "draft",
          subject: name,
          html: null,
          segment_description: "all subscribers",
          utm_tags: true,
          sent_to_number_of_subscribers: "0",
          open_count: "0",
          unique_open_count: "0",
          open_rate: 0,
          click_count: "0",
          unique_click_count: "0",
          click_rate: 0,
          unsubscribe_count: "0",
          unsubscribe_rate: "0",
          bounce_count: "0",
          bounce_rate: "0",
          sent_at: null,
          scheduled_at: null,
          summary_mail_sent_at: null
        })
        for (const key of ["created_at", "updated_at", "last_modified_at"]) expect(c[key]).toMatch(TIMESTAMP)
        const fetched = yield* get(c.uuid)
        expectStatus(fetched, 200)
        expect(fetched.body.data).toEqual(c)
      }))

    it.effect("name and email_list_uuid are required and the list must exist; nothing is created", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        expectValidation(yield* post({}), ["name"])
        expectValidation(yield* post({ email_list_uuid: list }), ["name"])
        expectValidation(yield* post({ name: "   ", email_list_uuid: list }), ["name"])
        expectValidation(yield* post({ name: "x" }), ["email_list_uuid"])
        for (const bad of [MISSING, "not-a-uuid"]) {
          const r = yield* post({ name: "x", email_list_uuid: bad })
          expectValidation(r, ["email_list_uuid"])
          expect(r.body.errors.email_list_uuid).toEqual(["The selected email list uuid is invalid."])
        }
        const listed = yield* call("GET", `/api/campaigns?filter[emailList.uuid]=${list}`)
        expectStatus(listed, 200)
        expect(listed.body.meta.total).toBe(0)
      }))

    it.effect("segment_uuid must be a segment of that list; a valid one names the audience", () =>
      Effect.gen(function*() {
        const list = yield* newList
        const other = yield* newList
        const foreign = yield* newSegment(other)
        for (const segment_uuid of [foreign, MISSING, "garbage"]) {
          expectValidation(yield* post({ name: "x", email_list_uuid: list, segment_uuid }), ["segment_uuid"])
        }
        const segName = unique("VIPs ")
        const segment = yield* newSegment(list, segName)
        const c = yield* create({ name: "seg", email_list_uuid: list, segment_uuid: segment })
        expect(c.segment_description).toBe(segName)
      }))

    it.effect("template fields fill the [[[slots]]]; a markdown field becomes HTML; the template uuid is kept", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const t = yield* call("POST", "/api/templates", {
          body: { name: unique("tpl"), html: "<html><body><h1>[[[title]]]</h1><div>[[[content:markdown]]]</div></body></html>" }
        })
        expectStatus(t, 201)
        const c = yield* create({
          name: "templated",
          email_list_uuid: list,
          template_uuid: t.body.data.uuid,
          fields: { title: "Hello there", content: "Some **bold** news and [a link](https://example.com/x)." }
        })
        expect(c.template_uuid).toBe(t.body.data.uuid)
        expect(c.html).toContain("<h1>Hello there</h1>")
        expect(c.html).not.toContain("[[[")
        expect(c.html).toContain("<strong>bold</strong>")
        expect(c.html).toContain("<a href=\"https://example.com/x\">a link</a>")
      }))

    it.effect("html given wins over the template; explicit subject, flags and sender are stored", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const t = yield* call("POST", "/api/templates", { body: { name: unique("tpl"), html: "<p>[[[title]]]</p>" } })
        expectStatus(t, 201)
        const c = yield* create({
          name: "own html",
          email_list_uuid: list,
          template_uuid: t.body.data.uuid,
          fields: { title: "from template" },
          html: "<p>mine</p>",
          subject: "Hi {{ subscriber.first_name }}",
          utm_tags: false,
          from_email: "boss@example.com",
          from_name: "The Boss"
        })
        expect(c).toMatchObject({
          html: "<p>mine</p>",
          subject: "Hi {{ subscriber.first_name }}",
          utm_tags: false,
          from_email: "boss@example.com",
          from_name: "The Boss"
        })
      }))

    it.effect("schedule_at (Y-m-d H:i:s, UTC) makes the campaign scheduled", () =>
      Effect.gen(function*() {
        const list = yield* newList
        const c = yield* create({ name: "later", email_list_uuid: list, schedule_at: "2099-03-04 05:06:07" })
        expect(c.status).toBe("scheduled")
        expect(c.scheduled_at).toBe("2099-03-04T05:06:07.000000Z")
        expect((yield* get(c.uuid)).body.data.scheduled_at).toBe("2099-03-04T05:06:07.000000Z")
      }))

    it.effect("a schedule_at in another format answers 422 on schedule_at", () =>
      Effect.gen(function*() {
        const list = yield* newList
        for (const schedule_at of ["2099-03-04T05:06:07Z", "2099-03-04", "tomorrow", "2099-13-01 00:00:00", "", 5]) {
          expectValidation(yield* post({ name: "bad", email_list_uuid: list, schedule_at }), ["schedule_at"])
        }
      }))

    it.effect("a schedule_at on a day the month does not have (2099-02-30) answers 422, not another date", () =>
      Effect.gen(function*() {
        const list = yield* newList
        const r = yield* post({ name: "feb", email_list_uuid: list, schedule_at: "2099-02-30 10:00:00" })
        expectValidation(r, ["schedule_at"])
      }))

    it.effect("GET, PUT and DELETE of an unknown or malformed id answer 404 {message}", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        for (const id of [MISSING, "nope", "999999999"]) {
          expectMessageOnly(yield* get(id), 404)
          expectMessageOnly(yield* put(id, { name: "x", email_list_uuid: list }), 404)
          expectMessageOnly(yield* call("DELETE", `/api/campaigns/${id}`), 404)
        }
      }))

    it.effect("PUT is a full replace: omitted fields go back to their defaults; no schedule_at unschedules", () =>
      Effect.gen(function*() {
        const list = yield* newList
        const segment = yield* newSegment(list)
        const c = yield* create({
          name: "orig",
          email_list_uuid: list,
          segment_uuid: segment,
          subject: "Orig subject",
          html: "<p>orig</p>",
          utm_tags: false,
          schedule_at: "2099-01-01 00:00:00"
        })
        expect(c.status).toBe("scheduled")
        yield* Effect.sleep("15 millis")
        const r = yield* put(c.uuid, { name: "renamed", email_list_uuid: list })
        expectStatus(r, 200)
        expect(r.body.data).toMatchObject({
          uuid: c.uuid,
          name: "renamed",
          subject: "renamed",
          html: null,
          utm_tags: true,
          segment_description: "all subscribers",
          status: "draft",
          scheduled_at: null,
          created_at: c.created_at
        })
        expect(r.body.data.updated_at > c.updated_at).toBe(true)
        expect(r.body.data.last_modified_at).toBe(r.body.data.updated_at)
        expect((yield* get(c.uuid)).body.data).toEqual(r.body.data)
        const again = yield* put(c.uuid, { name: "renamed", email_list_uuid: list, schedule_at: "2098-05-06 07:08:09" })
        expectStatus(again, 200)
        expect(again.body.data).toMatchObject({ status: "scheduled", scheduled_at: "2098-05-06T07:08:09.000000Z" })
      }))

    it.effect("an invalid PUT answers 422 and leaves the campaign unchanged", () =>
      Effect.gen(function*() {
        const list = yield* newList
        const c = yield* create({ name: "keep", email_list_uuid: list, html: "<p>keep</p>" })
        expectValidation(yield* put(c.uuid, { email_list_uuid: list }), ["name"])
        expectValidation(yield* put(c.uuid, { name: "x", email_list_uuid: MISSING }), ["email_list_uuid"])
        expectValidation(yield* put(c.uuid, { name: "x", email_list_uuid: list, schedule_at: "soon" }), ["schedule_at"])
        expect((yield* get(c.uuid)).body.data).toEqual(c)
      }))

    it.effect("PUT on a sending or sent campaign answers 422 on campaign and changes nothing", () =>
      Effect.gen(function*() {
        const { call, deliver } = yield* TestServer
        const list = yield* newList
        const c = yield* create({ name: "go", email_list_uuid: list, html: "<p>go</p>" })
        expectStatus(yield* call("POST", `/api/campaigns/${c.uuid}/send`), 204)
        expectValidation(yield* put(c.uuid, { name: "changed", email_list_uuid: list }), ["campaign"])
        expect((yield* get(c.uuid)).body.data).toMatchObject({ name: "go", status: "sending" })
        yield* deliver
        expect((yield* get(c.uuid)).body.data.status).toBe("sent")
        expectValidation(yield* put(c.uuid, { name: "changed", email_list_uuid: list }), ["campaign"])
        expect((yield* get(c.uuid)).body.data).toMatchObject({ name: "go", status: "sent" })
      }))

    it.effect("DELETE answers 204 with an empty body, then the campaign is gone", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const c = yield* create({ name: "bye", email_list_uuid: list })
        const r = yield* call("DELETE", `/api/campaigns/${c.uuid}`)
        expectStatus(r, 204)
        expect(r.text).toBe("")
        expectMessageOnly(yield* get(c.uuid), 404)
        expectMessageOnly(yield* call("DELETE", `/api/campaigns/${c.uuid}`), 404)
      }))
  })
})
