/**
 * An automation in real time with the background workers running (as `npm start` runs them), on every store: a
 * subscriber who subscribes through the API gets the first mail within seconds, and the second one, behind a 1-minute
 * `wait`, about a minute later: never before 55 s after the first, and within 90 s of subscribing. Nothing is driven by
 * hand: the trigger consumer, the scheduler and the mail delivery do it all.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectStatus, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

// the three stores wait their minute at the same time
describe.concurrent.each(stores)("an automation in real time on %s", (store) => {
  layer(TestServerLive(store, { worker: true }), { excludeTestServices: true, timeout: 60_000 })((it) => {
    it.effect("mail 1 at once, mail 2 after the 1-minute wait", () =>
      Effect.gen(function*() {
        const { call, mails } = yield* TestServer
        const domain = `${unique("rt")}.example`
        const list = (yield* call("POST", "/api/email-lists", { body: { name: unique("Realtime "), default_from_email: `news@${domain}` } })).body.data
        const mail = (subject: string) =>
          Effect.map(call("POST", "/api/automation-mails", { body: { name: unique("Mail "), subject, html: "<p>Hi {{ subscriber.first_name }}</p>" } }), (r) => {
            expectStatus(r, 201)
            return r.body.data.uuid as string
          })
        const first = yield* mail("First for {{ subscriber.first_name }}")
        const second = yield* mail("Second for {{ subscriber.first_name }}")
        const created = yield* call("POST", "/api/automations", {
          body: {
            name: "Drip",
            email_list_uuid: list.uuid,
            trigger: { type: "subscribed" },
            actions: [
              { type: "send_mail", automation_mail_uuid: first },
              { type: "wait", length: 1, unit: "minutes" },
              { type: "send_mail", automation_mail_uuid: second }
            ]
          }
        })
        expectStatus(created, 201)
        expectStatus(yield* call("POST", `/api/automations/${created.body.data.uuid}/start`), 204)

        const subscribedAt = Date.now()
        const r = yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, {
          body: { email: `ada@${domain}`, first_name: "Ada", skip_confirmation: true }
        })
        expectStatus(r, 201)
        const arrived: Record<string, number> = {}
        while (arrived["Second for Ada"] === undefined && Date.now() - subscribedAt < 95_000) {
          for (const m of yield* mails) if (m.to.email === `ada@${domain}` && arrived[m.subject] === undefined) arrived[m.subject] = Date.now()
          yield* Effect.sleep("200 millis")
        }
        const firstAt = arrived["First for Ada"]
        const secondAt = arrived["Second for Ada"]
        expect(firstAt, "mail 1 never arrived").toBeDefined()
        expect(firstAt! - subscribedAt).toBeLessThan(15_000)
        expect(secondAt, "mail 2 did not arrive within 95 s").toBeDefined()
        expect(secondAt! - firstAt!).toBeGreaterThanOrEqual(55_000)
        expect(secondAt! - subscribedAt).toBeLessThanOrEqual(90_000)
        expect(Object.keys(arrived).sort()).toEqual(["First for Ada", "Second for Ada"])
        const sends = (yield* call("GET", `/api/sends?filter[subscriber_uuid]=${r.body.data.uuid}`)).body
        expect(sends.meta.total).toBe(2)
        const where = (yield* call("GET", `/api/automations/${created.body.data.uuid}/subscribers`)).body.data
        expect(where).toEqual([expect.objectContaining({ subscriber_uuid: r.body.data.uuid, state: "completed" })])
      }), 150_000)
  })
})
