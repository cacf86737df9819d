import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, TIMESTAMP, unique } from "./expectations.js"
import { APP_URL, stores, TestServer, TestServerLive } from "./TestServer.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const FIELDS = [
  "uuid",
  "email_list_uuid",
  "email",
  "first_name",
  "last_name",
  "extra_attributes",
  "tags",
  "subscribed_at",
  "unsubscribed_at",
  "created_at",
  "updated_at"
].sort()

describe.each(stores)("POST subscribers on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const createList = (extra: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/email-lists", {
          body: { name: unique("Subs "), default_from_email: "news@example.com", ...extra }
        })
        expectStatus(r, 201)
        return r.body.data as { uuid: string; name: string; default_from_email: string }
      })
    const subscribe = (list: string, body: unknown, suffix = "") =>
      Effect.flatMap(TestServer, ({ call }) => call("POST", `/api/email-lists/${list}/subscribers${suffix}`, { body }))
    const action = (uuid: string, name: string) =>
      Effect.flatMap(TestServer, ({ call }) => call("POST", `/api/subscribers/${uuid}/${name}`))
    /** Runs due jobs, then returns the mails sent to `address`. */
    const mailsTo = (address: string) =>
      Effect.gen(function*() {
        const { mails, runJobs } = yield* TestServer
        yield* runJobs
        return (yield* mails).filter((m) => m.to.email.toLowerCase() === address.toLowerCase())
      })
    const activeCount = (list: string) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("GET", `/api/email-lists/${list}`)
        expectStatus(r, 200)
        return r.body.data.active_subscribers_count as number
      })

    it.effect("a new address answers 201 with exactly the subscriber fields, email lower-cased, subscribed", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const address = unique("New.Person") + "@Example.COM"
        const r = yield* subscribe(list.uuid, { email: address })
        expectStatus(r, 201)
        expect(Object.keys(r.body)).toEqual(["data"])
        const s = r.body.data
        expect(Object.keys(s).sort()).toEqual(FIELDS)
        expect(s.uuid).toMatch(UUID)
        expect(s).toMatchObject({
          email_list_uuid: list.uuid,
          email: address.toLowerCase(),
          first_name: null,
          last_name: null,
          extra_attributes: [],
          tags: [],
          unsubscribed_at: null
        })
        for (const key of ["subscribed_at", "created_at", "updated_at"]) expect(s[key]).toMatch(TIMESTAMP)
        expect(yield* activeCount(list.uuid)).toBe(1)
        expect(yield* mailsTo(address)).toEqual([])
      }))

    it.effect("names, extra_attributes and tags are stored; tags come back sorted and exist on the list", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList()
        const r = yield* subscribe(list.uuid, {
          email: unique("full") + "@example.com",
          first_name: "Ada",
          last_name: "Lovelace",
          extra_attributes: { plan: "pro", seats: 3 },
          tags: ["vip", "alpha"]
        })
        expectStatus(r, 201)
        expect(r.body.data).toMatchObject({
          first_name: "Ada",
          last_name: "Lovelace",
          extra_attributes: { plan: "pro", seats: 3 },
          tags: ["alpha", "vip"]
        })
        const tags = yield* call("GET", `/api/email-lists/${list.uuid}/tags`)
        expectStatus(tags, 200)
        expect(tags.body.data.map((t: { name: string }) => t.name).sort()).toEqual(["alpha", "vip"])
        const fetched = yield* call("GET", `/api/subscribers/${r.body.data.uuid}`)
        expectStatus(fetched, 200)
        expect(fetched.body.data).toEqual(r.body.data)
        // existing tags keep their stored names; repeats and blanks go; new ones are created as given (trimmed)
        const second = yield* subscribe(list.uuid, { email: unique("second") + "@example.com", tags: ["VIP", " Beta ", "beta", "", "Alpha"] })
        expectStatus(second, 201)
        expect(second.body.data.tags).toEqual(["alpha", "Beta", "vip"])
        expect((yield* call("GET", `/api/subscribers/${second.body.data.uuid}`)).body.data).toEqual(second.body.data)
      }))

    it.effect("nullable fields accept null, extra_attributes accepts [] as empty", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const r = yield* subscribe(list.uuid, {
          email: unique("nulls") + "@example.com",
          first_name: null,
          last_name: null,
          extra_attributes: null
        })
        expectStatus(r, 201)
        expect(r.body.data).toMatchObject({ first_name: null, last_name: null, extra_attributes: [] })
        const empty = yield* subscribe(list.uuid, { email: unique("empty") + "@example.com", extra_attributes: [] })
        expectStatus(empty, 201)
        expect(empty.body.data.extra_attributes).toEqual([])
      }))

    it.effect("invalid bodies answer 422 naming the field", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const ok = unique("valid") + "@example.com"
        for (const email of [undefined, "", "nope", "a@", "@b.c", null, 42]) {
          expectValidation(yield* subscribe(list.uuid, email === undefined ? {} : { email }), ["email"])
        }
        expectValidation(yield* subscribe(list.uuid, { email: ok, first_name: "x".repeat(256) }), ["first_name"])
        expectValidation(yield* subscribe(list.uuid, { email: ok, last_name: "x".repeat(256) }), ["last_name"])
        expectValidation(yield* subscribe(list.uuid, { email: ok, first_name: 5 }), ["first_name"])
        expectValidation(yield* subscribe(list.uuid, { email: ok, extra_attributes: "x" }), ["extra_attributes"])
        expectValidation(yield* subscribe(list.uuid, { email: ok, extra_attributes: [1, 2] }), ["extra_attributes"])
        const badTags = yield* subscribe(list.uuid, { email: ok, tags: "vip" })
        expect(badTags.status, badTags.text).toBe(422)
        expect(Object.keys(badTags.body.errors).some((k) => k.startsWith("tags"))).toBe(true)
        const badTag = yield* subscribe(list.uuid, { email: ok, tags: [1] })
        expect(badTag.status, badTag.text).toBe(422)
        expectValidation(yield* subscribe(list.uuid, { first_name: 5 }), ["email", "first_name"])
        // nothing was stored by the failed attempts
        expect(yield* activeCount(list.uuid)).toBe(0)
        expectStatus(yield* subscribe(list.uuid, { email: ok, first_name: "x".repeat(255) }), 201)
      }))

    it.effect("an unknown list answers 404", () =>
      Effect.gen(function*() {
        for (const id of ["6b2c1d2e-0000-4000-8000-000000000000", "not-a-list"]) {
          expectMessageOnly(yield* subscribe(id, { email: "x@example.com" }), 404)
        }
      }))

    it.effect("a list requiring confirmation keeps the address unconfirmed and mails the confirmation link", () =>
      Effect.gen(function*() {
        const list = yield* createList({ requires_confirmation: true, default_from_email: "hello@lists.example.com" })
        const address = unique("confirm") + "@example.com"
        const r = yield* subscribe(list.uuid, { email: address })
        expectStatus(r, 201)
        expect(r.body.data).toMatchObject({ subscribed_at: null, unsubscribed_at: null })
        expect(yield* activeCount(list.uuid)).toBe(0)
        const sent = yield* mailsTo(address)
        expect(sent.length).toBe(1)
        const mail = sent[0]!
        expect(mail.subject).toBe(`Confirm your subscription to ${list.name}`)
        expect(mail.from.email).toBe("hello@lists.example.com")
        const link = `${APP_URL}/confirm/${r.body.data.uuid}`
        expect(mail.html).toContain(link)
        if (mail.text !== undefined) expect(mail.text).toContain(link)
      }))

    it.effect("skip_confirmation subscribes at once on a confirmation list and sends no mail", () =>
      Effect.gen(function*() {
        const list = yield* createList({ requires_confirmation: true })
        const address = unique("skip") + "@example.com"
        const r = yield* subscribe(list.uuid, { email: address, skip_confirmation: true })
        expectStatus(r, 201)
        expect(r.body.data.subscribed_at).toMatch(TIMESTAMP)
        expect(yield* activeCount(list.uuid)).toBe(1)
        expect(yield* mailsTo(address)).toEqual([])
      }))

    it.effect("an existing address (any case) answers 200 with the same subscriber, changing only given fields", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const address = unique("again") + "@example.com"
        const first = (yield* subscribe(list.uuid, {
          email: address,
          first_name: "Grace",
          last_name: "Hopper",
          extra_attributes: { team: "navy" },
          tags: ["one"]
        })).body.data
        yield* Effect.sleep("5 millis")
        const second = yield* subscribe(list.uuid, { email: address.toUpperCase(), last_name: "Murray" })
        expectStatus(second, 200)
        expect(second.body.data).toMatchObject({
          uuid: first.uuid,
          email: address,
          first_name: "Grace",
          last_name: "Murray",
          extra_attributes: { team: "navy" },
          tags: ["one"],
          subscribed_at: first.subscribed_at,
          created_at: first.created_at
        })
        const retagged = yield* subscribe(list.uuid, { email: address, tags: ["two", "three"] })
        expectStatus(retagged, 200)
        expect(retagged.body.data).toMatchObject({ uuid: first.uuid, tags: ["three", "two"], last_name: "Murray" })
        expect(yield* activeCount(list.uuid)).toBe(1)
      }))

    it.effect("an unsubscribed address posted again is subscribed again", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const address = unique("back") + "@example.com"
        const s = (yield* subscribe(list.uuid, { email: address })).body.data
        expectStatus(yield* action(s.uuid, "unsubscribe"), 204)
        expect(yield* activeCount(list.uuid)).toBe(0)
        const r = yield* subscribe(list.uuid, { email: address })
        expectStatus(r, 200)
        expect(r.body.data.uuid).toBe(s.uuid)
        expect(r.body.data.unsubscribed_at).toBeNull()
        expect(r.body.data.subscribed_at).toMatch(TIMESTAMP)
        expect(yield* activeCount(list.uuid)).toBe(1)
      }))

    it.effect("on a confirmation list an unsubscribed address posted again becomes unconfirmed with a new mail", () =>
      Effect.gen(function*() {
        const list = yield* createList({ requires_confirmation: true })
        const address = unique("reconfirm") + "@example.com"
        const s = (yield* subscribe(list.uuid, { email: address, skip_confirmation: true })).body.data
        expectStatus(yield* action(s.uuid, "unsubscribe"), 204)
        const r = yield* subscribe(list.uuid, { email: address })
        expectStatus(r, 200)
        expect(r.body.data).toMatchObject({ uuid: s.uuid, subscribed_at: null, unsubscribed_at: null })
        expect(yield* activeCount(list.uuid)).toBe(0)
        const sent = yield* mailsTo(address)
        expect(sent.length).toBe(1)
        expect(sent[0]!.html).toContain(`${APP_URL}/confirm/${s.uuid}`)
        // with skip_confirmation it is subscribed straight away
        expectStatus(yield* action(s.uuid, "confirm"), 204)
        expectStatus(yield* action(s.uuid, "unsubscribe"), 204)
        const skipped = yield* subscribe(list.uuid, { email: address, skip_confirmation: true })
        expectStatus(skipped, 200)
        expect(skipped.body.data.subscribed_at).toMatch(TIMESTAMP)
        expect(skipped.body.data.unsubscribed_at).toBeNull()
        expect(yield* activeCount(list.uuid)).toBe(1)
        expect((yield* mailsTo(address)).length).toBe(1)
      }))

    it.effect("on a confirmation list a subscribed address posted again stays subscribed and gets no mail", () =>
      Effect.gen(function*() {
        const list = yield* createList({ requires_confirmation: true })
        const address = unique("stay") + "@example.com"
        const s = (yield* subscribe(list.uuid, { email: address, skip_confirmation: true })).body.data
        const r = yield* subscribe(list.uuid, { email: address, first_name: "Stay" })
        expectStatus(r, 200)
        expect(r.body.data).toMatchObject({ uuid: s.uuid, subscribed_at: s.subscribed_at, first_name: "Stay" })
        expect(yield* mailsTo(address)).toEqual([])
      }))

    it.effect("on a confirmation list an unconfirmed address posted again stays unconfirmed and is mailed again", () =>
      Effect.gen(function*() {
        const list = yield* createList({ requires_confirmation: true })
        const address = unique("pending") + "@example.com"
        const s = (yield* subscribe(list.uuid, { email: address })).body.data
        expect((yield* mailsTo(address)).length).toBe(1)
        const r = yield* subscribe(list.uuid, { email: address.toUpperCase(), first_name: "Pat" })
        expectStatus(r, 200)
        expect(r.body.data).toMatchObject({ uuid: s.uuid, subscribed_at: null, unsubscribed_at: null, first_name: "Pat" })
        const sent = yield* mailsTo(address)
        expect(sent.length).toBe(2)
        expect(sent[1]!.html).toContain(`${APP_URL}/confirm/${s.uuid}`)
        // strict does not refuse an address that is not subscribed yet
        expectStatus(yield* subscribe(list.uuid, { email: address, strict: true }), 200)
        expect(yield* activeCount(list.uuid)).toBe(0)
      }))

    it.effect("strict (body or query) refuses an address that is already subscribed", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const address = unique("strict") + "@example.com"
        expectStatus(yield* subscribe(list.uuid, { email: address, strict: true }), 201)
        for (const [body, suffix] of [[{ email: address, strict: true }, ""], [{ email: address.toUpperCase() }, "?strict=true"]] as const) {
          const r = yield* subscribe(list.uuid, body, suffix)
          expectValidation(r, ["email"])
          expect(r.body.errors.email).toEqual(["This email address is already subscribed."])
        }
        expectStatus(yield* subscribe(list.uuid, { email: address, strict: false }), 200)
        // an address that is not subscribed (here: unsubscribed) is not refused
        const uuid = (yield* subscribe(list.uuid, { email: address })).body.data.uuid
        expectStatus(yield* action(uuid, "unsubscribe"), 204)
        const back = yield* subscribe(list.uuid, { email: address, strict: true })
        expectStatus(back, 200)
        expect(back.body.data.unsubscribed_at).toBeNull()
      }))
  })
})
