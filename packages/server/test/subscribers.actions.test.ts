import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, TIMESTAMP, unique } from "./expectations.js"
import { APP_URL, type Reply, stores, TestServer, TestServerLive } from "./TestServer.js"

const UNKNOWN = "6b2c1d2e-0000-4000-8000-000000000000"
const NOT_UNCONFIRMED = {
  confirm: "The subscriber was already confirmed",
  "resend-confirmation": "This email is not unconfirmed"
} as const

type Action = "confirm" | "unsubscribe" | "resubscribe" | "resend-confirmation"

describe.each(stores)("subscriber state actions on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const createList = (extra: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/email-lists", {
          body: { name: unique("Act "), default_from_email: "news@example.com", ...extra }
        })
        expectStatus(r, 201)
        return r.body.data.uuid as string
      })
    const subscribe = (list: string, body: Record<string, unknown>) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", `/api/email-lists/${list}/subscribers`, { body })
        expect([200, 201], r.text).toContain(r.status)
        return r.body.data as { uuid: string; email: string }
      })
    /** The two ways of triggering an action: by subscriber uuid, or by list + email (in the given spelling). */
    const variants = {
      uuid: (_list: string, s: { uuid: string }, action: Action) =>
        Effect.flatMap(TestServer, ({ call }) => call("POST", `/api/subscribers/${s.uuid}/${action}`)),
      "list+email": (list: string, s: { email: string }, action: Action) =>
        Effect.flatMap(TestServer, ({ call }) =>
          call("POST", `/api/email-lists/${list}/${action}`, { body: { email: s.email.toUpperCase() } }))
    } as const
    const get = (uuid: string) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("GET", `/api/subscribers/${uuid}`)
        expectStatus(r, 200)
        return r.body.data
      })
    const activeCount = (list: string) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        return (yield* call("GET", `/api/email-lists/${list}`)).body.data.active_subscribers_count as number
      })
    const mailsTo = (address: string) =>
      Effect.gen(function*() {
        const { mails, runJobs } = yield* TestServer
        yield* runJobs
        return (yield* mails).filter((m) => m.to.email.toLowerCase() === address.toLowerCase())
      })
    const expect204 = (r: Reply) => {
      expectStatus(r, 204)
      expect(r.text).toBe("")
    }

    for (const [variant, act] of Object.entries(variants)) {
      it.effect(`${variant}: a subscribed address can only be unsubscribed, then only resubscribed`, () =>
        Effect.gen(function*() {
          const list = yield* createList()
          const s = yield* subscribe(list, { email: unique("sub") + "@example.com" })
          expectMessageOnly(yield* act(list, s, "confirm"), 422, NOT_UNCONFIRMED.confirm)
          expectMessageOnly(yield* act(list, s, "resend-confirmation"), 422, NOT_UNCONFIRMED["resend-confirmation"])
          expectMessageOnly(yield* act(list, s, "resubscribe"), 422, "This email was not unsubscribed")
          expect204(yield* act(list, s, "unsubscribe"))
          const off = yield* get(s.uuid)
          expect(off.unsubscribed_at).toMatch(TIMESTAMP)
          expect(yield* activeCount(list)).toBe(0)
          expectMessageOnly(yield* act(list, s, "unsubscribe"), 422, "This email was not subscribed")
          expectMessageOnly(yield* act(list, s, "confirm"), 422, NOT_UNCONFIRMED.confirm)
          expectMessageOnly(yield* act(list, s, "resend-confirmation"), 422, NOT_UNCONFIRMED["resend-confirmation"])
          expect204(yield* act(list, s, "resubscribe"))
          const on = yield* get(s.uuid)
          expect(on.unsubscribed_at).toBeNull()
          expect(on.subscribed_at).toMatch(TIMESTAMP)
          expect(yield* activeCount(list)).toBe(1)
          expect(yield* mailsTo(s.email)).toEqual([])
        }))

      it.effect(`${variant}: an unconfirmed address can be sent the mail again and confirmed`, () =>
        Effect.gen(function*() {
          const list = yield* createList({ requires_confirmation: true })
          const s = yield* subscribe(list, { email: unique("unc") + "@example.com" })
          expect((yield* mailsTo(s.email)).length).toBe(1)
          expectMessageOnly(yield* act(list, s, "unsubscribe"), 422, "This email was not subscribed")
          expectMessageOnly(yield* act(list, s, "resubscribe"), 422, "This email was not unsubscribed")
          expect204(yield* act(list, s, "resend-confirmation"))
          const sent = yield* mailsTo(s.email)
          expect(sent.length).toBe(2)
          expect(sent[1]!.html).toContain(`${APP_URL}/confirm/${s.uuid}`)
          expect((yield* get(s.uuid)).subscribed_at).toBeNull()
          expect(yield* activeCount(list)).toBe(0)
          expect204(yield* act(list, s, "confirm"))
          expect((yield* get(s.uuid)).subscribed_at).toMatch(TIMESTAMP)
          expect(yield* activeCount(list)).toBe(1)
          expectMessageOnly(yield* act(list, s, "confirm"), 422, NOT_UNCONFIRMED.confirm)
          expectMessageOnly(yield* act(list, s, "resend-confirmation"), 422, NOT_UNCONFIRMED["resend-confirmation"])
          expect((yield* mailsTo(s.email)).length).toBe(2)
        }))

      it.effect(`${variant}: resubscribing a confirmed address on a confirmation list subscribes it without a mail`, () =>
        Effect.gen(function*() {
          const list = yield* createList({ requires_confirmation: true })
          const s = yield* subscribe(list, { email: unique("resub") + "@example.com" })
          expect((yield* mailsTo(s.email)).length).toBe(1)
          expect204(yield* act(list, s, "confirm"))
          expect204(yield* act(list, s, "unsubscribe"))
          expect204(yield* act(list, s, "resubscribe"))
          const back = yield* get(s.uuid)
          expect(back.subscribed_at).toMatch(TIMESTAMP)
          expect(back.unsubscribed_at).toBeNull()
          expect((yield* mailsTo(s.email)).length).toBe(1)
        }))
    }

    it.effect("actions by uuid answer 404 for an unknown subscriber", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        for (const action of ["confirm", "unsubscribe", "resubscribe", "resend-confirmation"]) {
          expectMessageOnly(yield* call("POST", `/api/subscribers/${UNKNOWN}/${action}`), 404)
          expectMessageOnly(yield* call("POST", `/api/subscribers/garbage/${action}`), 404)
        }
      }))

    it.effect("actions by list + email validate the email and answer 404 for unknown lists and addresses", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList()
        const other = yield* createList()
        const s = yield* subscribe(other, { email: unique("elsewhere") + "@example.com" })
        for (const action of ["confirm", "unsubscribe", "resubscribe", "resend-confirmation"]) {
          const path = `/api/email-lists/${list}/${action}`
          expectValidation(yield* call("POST", path, { body: {} }), ["email"])
          expectValidation(yield* call("POST", path, { body: { email: "not-an-email" } }), ["email"])
          expectValidation(yield* call("POST", path, { body: { email: 7 } }), ["email"])
          expectMessageOnly(yield* call("POST", path, { body: { email: unique("nobody") + "@example.com" } }), 404)
          // an address subscribed to another list is not found on this one
          expectMessageOnly(yield* call("POST", path, { body: { email: s.email } }), 404)
          expectMessageOnly(yield* call("POST", `/api/email-lists/${UNKNOWN}/${action}`, { body: { email: s.email } }), 404)
        }
        expect((yield* get(s.uuid)).unsubscribed_at).toBeNull()
      }))

    it.effect("active_subscribers_count follows create, confirm, unsubscribe, resubscribe, delete and re-POST", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList({ requires_confirmation: true })
        expect(yield* activeCount(list)).toBe(0)
        const a = yield* subscribe(list, { email: unique("a") + "@example.com", skip_confirmation: true })
        expect(yield* activeCount(list)).toBe(1)
        const b = yield* subscribe(list, { email: unique("b") + "@example.com", skip_confirmation: true })
        expect(yield* activeCount(list)).toBe(2)
        const c = yield* subscribe(list, { email: unique("c") + "@example.com" })
        expect(yield* activeCount(list)).toBe(2)
        expect204(yield* call("POST", `/api/subscribers/${c.uuid}/confirm`))
        expect(yield* activeCount(list)).toBe(3)
        expect204(yield* call("POST", `/api/subscribers/${a.uuid}/unsubscribe`))
        expect(yield* activeCount(list)).toBe(2)
        expect204(yield* call("POST", `/api/email-lists/${list}/resubscribe`, { body: { email: a.email } }))
        expect(yield* activeCount(list)).toBe(3)
        expect204(yield* call("DELETE", `/api/subscribers/${b.uuid}`))
        expect(yield* activeCount(list)).toBe(2)
        expect204(yield* call("POST", `/api/email-lists/${list}/unsubscribe`, { body: { email: c.email } }))
        expect(yield* activeCount(list)).toBe(1)
        // re-POST of the unsubscribed address: unconfirmed without skip_confirmation, subscribed with it
        yield* subscribe(list, { email: c.email })
        expect(yield* activeCount(list)).toBe(1)
        yield* subscribe(list, { email: c.email, skip_confirmation: true })
        expect(yield* activeCount(list)).toBe(2)
        // updating a subscribed address does not count it twice
        yield* subscribe(list, { email: a.email, first_name: "A" })
        expect(yield* activeCount(list)).toBe(2)
        const listed = yield* call("GET", `/api/email-lists/${list}/subscribers?filter[status]=subscribed`)
        expect(listed.body.meta.total).toBe(2)
      }))
  })
})
