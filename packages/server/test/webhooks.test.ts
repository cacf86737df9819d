/**
 * Outgoing webhooks through the API: create (secret shown once), validation, list, change, delete; events posted to a
 * loopback receiver with the resource as the API shows it, signed per Standard Webhooks and checked with the
 * `standardwebhooks` package; filters by event type and list; a receiver answering 500 then 200; a timeout; retry.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Webhook } from "standardwebhooks"
import { expectMessageOnly, expectStatus, expectValidation, TIMESTAMP, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"
import { webhookReceiver } from "./WebhookReceiver.js"

describe.each(stores)("webhooks on %s", (store) => {
  layer(TestServerLive(store, { webhooks: { timeoutMs: 300 } }), { excludeTestServices: true })((it) => {
    const aList = Effect.gen(function*() {
      const { call } = yield* TestServer
      const r = yield* call("POST", "/api/email-lists", { body: { name: unique("List "), default_from_email: "news@example.com" } })
      expectStatus(r, 201)
      return r.body.data.uuid as string
    })
    const aWebhook = (body: Record<string, unknown>) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/webhooks", { body })
        expectStatus(r, 201)
        return r.body.data
      })
    const deliveries = (uuid: string, query = "") =>
      Effect.flatMap(TestServer, ({ call }) => Effect.map(call("GET", `/api/webhooks/${uuid}/deliveries${query}`), (r) => r.body.data as Array<any>))

    /**
     * Dispatches until `done` holds (2 s at most): on Postgres an event is read only once every transaction older than
     * its own has ended, and a test file running beside this one on the same database may hold one open a moment.
     */
    const dispatchUntil = <R>(done: Effect.Effect<boolean, never, R>) =>
      Effect.gen(function*() {
        const { dispatchWebhooks } = yield* TestServer
        for (let tries = 0; tries < 40; tries++) {
          yield* dispatchWebhooks
          if (yield* done) return
          yield* Effect.sleep("50 millis")
        }
      })

    it.scoped("create shows the secret once; bad fields are 422 by field; list, change and delete", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* aList
        const created = yield* aWebhook({ url: "https://hooks.example.com/mailroom", events: ["subscriber.created"], email_list_uuids: [list] })
        expect(created).toMatchObject({
          name: "hooks.example.com",
          url: "https://hooks.example.com/mailroom",
          events: ["subscriber.created"],
          email_list_uuids: [list],
          enabled: true,
          disabled_reason: null,
          failing_since: null
        })
        expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
        expect(created.created_at).toMatch(TIMESTAMP)
        const shown = yield* call("GET", `/api/webhooks/${created.uuid}`)
        expectStatus(shown, 200)
        expect(shown.body.data.secret).toBeUndefined()
        expectValidation(yield* call("POST", "/api/webhooks", { body: {} }), ["url"])
        expectValidation(yield* call("POST", "/api/webhooks", { body: { url: "ftp://example.com/x", events: ["mail.sent", "nope"], secret: "short" } }), ["url", "events", "secret"])
        expectValidation(yield* call("POST", "/api/webhooks", { body: { url: "https://example.com", email_list_uuids: ["00000000-0000-4000-8000-000000000000"] } }), ["email_list_uuids.0"])
        const all = yield* aWebhook({ url: "http://127.0.0.1:9/x", name: "Everything", events: ["*"], secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" })
        expect(all).toMatchObject({ name: "Everything", events: ["*"], email_list_uuids: null, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" })
        const changed = yield* call("PUT", `/api/webhooks/${created.uuid}`, { body: { events: ["mail.sent", "mail.opened"], enabled: false } })
        expectStatus(changed, 200)
        expect(changed.body.data).toMatchObject({ events: ["mail.sent", "mail.opened"], enabled: false, url: created.url, email_list_uuids: [list] })
        expect(changed.body.data.secret).toBeUndefined()
        const listed = yield* call("GET", "/api/webhooks?filter[enabled]=false&per_page=100")
        expect(listed.body.data.map((w: any) => w.uuid)).toContain(created.uuid)
        expect(listed.body.data.map((w: any) => w.uuid)).not.toContain(all.uuid)
        expectMessageOnly(yield* call("GET", "/api/webhooks?sort=url"), 400)
        expectStatus(yield* call("DELETE", `/api/webhooks/${created.uuid}`), 204)
        expectMessageOnly(yield* call("GET", `/api/webhooks/${created.uuid}`), 404)
        expectStatus(yield* call("DELETE", `/api/webhooks/${all.uuid}`), 204)
      }))

    it.scoped("posts each wanted event once, signed, with the resource as the API shows it; other lists and kinds are not sent", () =>
      Effect.gen(function*() {
        const { call, dispatchWebhooks } = yield* TestServer
        const receiver = yield* webhookReceiver
        const [list, other] = [yield* aList, yield* aList]
        const hook = yield* aWebhook({ url: receiver.url, events: ["subscriber.created", "tag.added", "subscriber.unsubscribed"], email_list_uuids: [list] })
        const subscriber = yield* call("POST", `/api/email-lists/${list}/subscribers`, { body: { email: "ada@example.com", first_name: "Ada", tags: ["vip"] } })
        expectStatus(subscriber, 201)
        expectStatus(yield* call("POST", `/api/email-lists/${other}/subscribers`, { body: { email: "other@example.com" } }), 201)
        const uuid = subscriber.body.data.uuid
        expectStatus(yield* call("POST", `/api/subscribers/${uuid}/unsubscribe`), 204)
        expectStatus(yield* call("PATCH", `/api/subscribers/${uuid}`, { body: { email: "ada@example.com", first_name: "Ada L." } }), 200)
        yield* dispatchUntil(Effect.sync(() => receiver.received.length >= 3))
        const types = receiver.received.map((r) => r.json.type)
        expect(types).toEqual(["subscriber.created", "tag.added", "subscriber.unsubscribed"])
        const [created, tagged] = receiver.received
        expect(created!.json).toMatchObject({
          id: expect.stringMatching(/^evt_\d+$/),
          type: "subscriber.created",
          data: { uuid, email_list_uuid: list, email: "ada@example.com", first_name: "Ada L.", tags: ["vip"] }
        })
        expect(created!.json.created_at).toMatch(TIMESTAMP)
        expect(tagged!.json.data).toMatchObject({ uuid, tag: "vip" })
        const verifier = new Webhook(hook.secret)
        for (const request of receiver.received) {
          expect(request.headers["webhook-id"]).toBe(request.json.id)
          expect(() => verifier.verify(request.body, request.headers as Record<string, string>)).not.toThrow()
        }
        expect(() => new Webhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").verify(created!.body, created!.headers as Record<string, string>)).toThrow()
        const log = yield* deliveries(hook.uuid, "?sort=created_at")
        expect(log.map((d) => [d.event_type, d.status, d.attempts, d.response_status])).toEqual([
          ["subscriber.created", "succeeded", 1, 200],
          ["tag.added", "succeeded", 1, 200],
          ["subscriber.unsubscribed", "succeeded", 1, 200]
        ])
        expect(log[0].payload).toEqual(created!.json)
        yield* dispatchWebhooks
        expect(receiver.received).toHaveLength(3)
      }))

    it.scoped("a receiver answering 500 then 200: the attempt is logged and retried with the same id and body", () =>
      Effect.gen(function*() {
        const { call, dispatchWebhooks } = yield* TestServer
        const receiver = yield* webhookReceiver
        const list = yield* aList
        const hook = yield* aWebhook({ url: receiver.url, events: ["subscriber.created"], email_list_uuids: [list] })
        receiver.answerNext(500)
        expectStatus(yield* call("POST", `/api/email-lists/${list}/subscribers`, { body: { email: "bob@example.com" } }), 201)
        yield* dispatchUntil(Effect.map(deliveries(hook.uuid), (found) => found.some((delivery) => delivery.attempts > 0)))
        const [failed] = yield* deliveries(hook.uuid)
        expect(failed).toMatchObject({ status: "pending", attempts: 1, response_status: 500, response_body: "failed with 500", error: "The endpoint answered 500." })
        expect(Date.parse(failed.next_attempt_at) - Date.parse(failed.last_attempt_at)).toBe(5_000)
        expect((yield* call("GET", `/api/webhooks/${hook.uuid}`)).body.data.failing_since).toMatch(TIMESTAMP)
        const retried = yield* call("POST", `/api/webhooks/${hook.uuid}/deliveries/${failed.uuid}/retry`)
        expectStatus(retried, 200)
        expect(retried.body.data.status).toBe("pending")
        yield* dispatchWebhooks
        const [done] = yield* deliveries(hook.uuid)
        expect(done).toMatchObject({ uuid: failed.uuid, status: "succeeded", attempts: 2, response_status: 200, error: null })
        expect(receiver.received).toHaveLength(2)
        expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body)
        expect(receiver.received[1]!.headers["webhook-id"]).toBe(receiver.received[0]!.headers["webhook-id"])
        expect((yield* call("GET", `/api/webhooks/${hook.uuid}`)).body.data.failing_since).toBeNull()
        expectMessageOnly(yield* call("POST", `/api/webhooks/${hook.uuid}/deliveries/00000000-0000-4000-8000-000000000000/retry`), 404)
        expectMessageOnly(yield* call("GET", `/api/webhooks/${hook.uuid}/deliveries/nope`), 404)
      }))

    it.scoped("an endpoint that never answers times out and waits for its next attempt; nothing else is held up", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const slow = yield* webhookReceiver
        const fast = yield* webhookReceiver
        const list = yield* aList
        const stuck = yield* aWebhook({ url: slow.url, events: ["subscriber.created"], email_list_uuids: [list] })
        yield* aWebhook({ url: fast.url, events: ["subscriber.created"], email_list_uuids: [list] })
        slow.answerNext("hang")
        expectStatus(yield* call("POST", `/api/email-lists/${list}/subscribers`, { body: { email: "carol@example.com" } }), 201)
        yield* dispatchUntil(Effect.sync(() => fast.received.length > 0))
        expect(fast.received).toHaveLength(1)
        const [timedOut] = yield* deliveries(stuck.uuid)
        expect(timedOut).toMatchObject({ status: "pending", attempts: 1, response_status: null, error: "No answer within 300 ms." })
      }))
  })
})
