/**
 * Bounce plumbing: BOUNCE_ADDRESS sets the envelope sender of every mail (VERP with `{send}`), FEEDBACK_ID adds a
 * Feedback-ID header, every campaign mail names its send in X-Mailroom-Send, and feedback takes that header's value.
 */
import { describe, expect, it } from "@effect/vitest"
import { SmtpMailer } from "@mailroom/smtp"
import { startFaultySmtpServer } from "@mailroom/smtp/testing"
import { Effect } from "effect"
import { expectStatus, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const header = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, "mi").exec(raw)?.[1]?.trim()

describe.each(stores)("bounce address, feedback id and send id on %s", (store) => {
  it.live("campaign mails go out from bounces+<send>@…, with Feedback-ID and X-Mailroom-Send; feedback takes the header's value", () =>
    Effect.gen(function*() {
      const sink = yield* Effect.acquireRelease(Effect.promise(() => startFaultySmtpServer()), (s) => Effect.promise(() => s.close()))
      yield* Effect.gen(function*() {
        const { call, deliver, runJobs } = yield* TestServer
        const domain = `${unique("b")}.example`
        const list = (yield* call("POST", "/api/email-lists", { body: { name: unique("Bounces "), default_from_email: `news@${domain}`, requires_confirmation: true } })).body.data
        expectStatus(yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, { body: { email: `ada@${domain}`, skip_confirmation: true } }), 201)
        expectStatus(yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, { body: { email: `new@${domain}` } }), 201)
        const campaign = (yield* call("POST", "/api/campaigns", { body: { name: unique("C "), email_list_uuid: list.uuid, html: "<p>hi</p>" } })).body.data
        expectStatus(yield* call("POST", `/api/campaigns/${campaign.uuid}/send`), 204)
        yield* deliver
        yield* runJobs
        const sends = (yield* call("GET", `/api/sends?filter[campaign_uuid]=${campaign.uuid}`)).body.data
        const send = sends[0].uuid as string
        const mail = sink.received.find((m) => m.to[0] === `ada@${domain}`)!
        expect(mail.from).toBe(`bounces+${send}@mail.example.test`)
        expect(header(mail.raw, "X-Mailroom-Send")).toBe(send)
        expect(header(mail.raw, "Feedback-ID")).toBe(`${campaign.uuid}:${list.uuid}:mailroom:acme-42`)
        expect(header(mail.raw, "From")).toBe(`news@${domain}`)
        // a mail without a send (the confirmation) goes from the bare bounce address
        const confirmation = sink.received.find((m) => m.to[0] === `new@${domain}`)!
        expect(confirmation.from).toBe("bounces@mail.example.test")
        expect(header(confirmation.raw, "X-Mailroom-Send")).toBeUndefined()

        expectStatus(yield* call("POST", "/api/feedback", { body: { type: "bounce", email: `ada@${domain}`, send_uuid: ` <${send}> ` } }), 204)
        const bounces = (yield* call("GET", `/api/campaigns/${campaign.uuid}/bounces`)).body.data
        expect(bounces.map((b: { subscriber_email: string; type: string }) => [b.subscriber_email, b.type])).toEqual([[`ada@${domain}`, "bounce"]])
      }).pipe(Effect.provide(TestServerLive(store, {
        mailer: SmtpMailer({ url: sink.url }),
        identity: { bounceAddress: "bounces+{send}@mail.example.test", feedbackId: "acme-42" }
      })))
    }).pipe(Effect.scoped), { timeout: 30_000 })
})
