/**
 * Postmark, Mailgun and SendGrid feedback through a real server: each provider's authentication (basic auth or a secret
 * path, an HMAC, an ECDSA signature), its events through the bounce policy, and matching by send header, by the
 * transactional mail's Message-ID or by the latest mail to the address. Unconfigured providers answer 404.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { mailgunComplained, mailgunFailed } from "../../core/test/feedback/payloads/mailgunPayloads.js"
import { postmarkBounce, postmarkSpamComplaint } from "../../core/test/feedback/payloads/postmarkPayloads.js"
import { sendgridBatch, sendgridBounce, sendgridSpamReport } from "../../core/test/feedback/payloads/sendgridPayloads.js"
import { expectMessageOnly, expectStatus, query, unique } from "./expectations.js"
import {
  basic,
  bouncesOf,
  isSubscribed,
  listOf,
  POSTMARK,
  ProvidersServerLive,
  sendCampaign,
  sendgridHeaders,
  signMailgun,
  suppressed,
  webhook
} from "./feedback.support.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const postmarkAuth = { authorization: basic(POSTMARK.user, POSTMARK.password) }

/** A transactional mail sent and delivered to the address; its template's uuid and the mail's Message-ID. */
const transactionalTo = (email: string) =>
  Effect.gen(function*() {
    const { call, deliverTransactional } = yield* TestServer
    const template = yield* call("POST", "/api/transactional-mails/templates", { body: { name: unique("fb"), subject: "Reset", html: "<p>Reset</p>" } })
    expectStatus(template, 201)
    const sent = yield* call("POST", "/api/transactional-mails/send", { body: { mail_name: template.body.data.name, from: "shop@example.com", to: email } })
    expectStatus(sent, 200)
    yield* deliverTransactional
    const logged = (yield* call("GET", `/api/transactional-mails/${sent.body.uuid}`)).body.data
    return { template: template.body.data.uuid as string, messageId: logged.transport_message_id as string }
  })

const bounceCountOf = (template: string) =>
  Effect.map(Effect.flatMap(TestServer, ({ call }) => call("GET", `/api/transactional-mails/templates/${template}`)), (r) => r.body.data.bounce_count)

describe.each(stores)("provider feedback webhooks on %s", (store) => {
  layer(ProvidersServerLive(store), { excludeTestServices: true })((it) => {
    it.effect("Postmark: basic auth or the secret path; a hard bounce and a spam complaint apply, wrong credentials are 401", () =>
      Effect.gen(function*() {
        const { at, list } = yield* listOf(["hard", "spam", "other"])
        const campaign = yield* sendCampaign(list)
        expectMessageOnly(yield* webhook("/feedback/postmark", postmarkBounce({ email: at("other") }), { authorization: basic(POSTMARK.user, "wrong") }), 401)
        expectMessageOnly(yield* webhook("/feedback/postmark", postmarkBounce({ email: at("other") })), 401)
        expectMessageOnly(yield* webhook("/feedback/postmark/wrong-secret", postmarkBounce({ email: at("other") })), 401)
        expect(yield* suppressed(at("other"))).toBeNull()

        const r = yield* webhook("/feedback/postmark", postmarkBounce({ email: at("hard") }), postmarkAuth)
        expectStatus(r, 200)
        expect(r.body).toEqual({ recorded: 1, ignored: 0, confirmed: false })
        const metadata = { "X-Mailroom-Send": campaign.sendTo(at("spam")) }
        expectStatus(yield* webhook(`/feedback/postmark/${POSTMARK.secret}`, postmarkSpamComplaint({ email: at("spam"), metadata })), 200)
        expect(yield* suppressed(at("hard"))).toBe("hard_bounce")
        expect(yield* suppressed(at("spam"))).toBe("spam_complaint")
        expect(yield* isSubscribed(list, at("hard"))).toBe(false)
        expect(yield* bouncesOf(campaign.uuid)).toEqual([[at("hard"), "bounce"], [at("spam"), "complaint"]])
        expectMessageOnly(yield* webhook("/feedback/postmark", "{not json", postmarkAuth), 400)
        expectMessageOnly(yield* webhook("/feedback/postmark", { Type: "HardBounce" }, postmarkAuth), 400)
      }))

    it.effect("Mailgun: signed failures and complaints apply; a bad signature, a reused token or an old timestamp is 401", () =>
      Effect.gen(function*() {
        const { at, list } = yield* listOf(["perm", "temp", "angry", "other"])
        const campaign = yield* sendCampaign(list)
        const forged = signMailgun(mailgunFailed({ recipient: at("other") }), { key: "not-the-key" })
        expectMessageOnly(yield* webhook("/feedback/mailgun", forged), 401)
        const stale = signMailgun(mailgunFailed({ recipient: at("other") }), { timestamp: Math.floor(Date.now() / 1000) - 3600 })
        expectMessageOnly(yield* webhook("/feedback/mailgun", stale), 401)
        expectMessageOnly(yield* webhook("/feedback/mailgun", mailgunFailed({ recipient: at("other") })), 401)
        const { signature: _, ...unsigned } = mailgunFailed({ recipient: at("other") })
        expectMessageOnly(yield* webhook("/feedback/mailgun", unsigned), 401)

        const permanent = signMailgun(mailgunFailed({ recipient: at("perm"), reason: "bounce" }))
        expect((yield* webhook("/feedback/mailgun", permanent)).body).toEqual({ recorded: 1, ignored: 0, confirmed: false })
        expectMessageOnly(yield* webhook("/feedback/mailgun", permanent), 401)
        expectStatus(yield* webhook("/feedback/mailgun", signMailgun(mailgunFailed({ recipient: at("temp"), severity: "temporary" }))), 200)
        const variables = { mailroom_send: campaign.sendTo(at("angry")) }
        expectStatus(yield* webhook("/feedback/mailgun", signMailgun(mailgunComplained({ recipient: at("angry"), variables }))), 200)

        expect(yield* suppressed(at("perm"))).toBe("hard_bounce")
        expect(yield* suppressed(at("temp"))).toBeNull()
        expect(yield* suppressed(at("angry"))).toBe("spam_complaint")
        expect(yield* suppressed(at("other"))).toBeNull()
        expect(yield* bouncesOf(campaign.uuid)).toEqual([[at("angry"), "complaint"], [at("perm"), "bounce"], [at("temp"), "soft_bounce"]])
      }))

    it.effect("a report with the Message-ID of a transactional mail counts on that mail, not on the later campaign", () =>
      Effect.gen(function*() {
        const { at, list } = yield* listOf(["jane", "joe"])
        const mail = yield* transactionalTo(at("jane"))
        const campaign = yield* sendCampaign(list)
        expect(mail.messageId).toMatch(/^<.+@.+>$/)
        const bare = mail.messageId.slice(1, -1)
        expectStatus(yield* webhook("/feedback/mailgun", signMailgun(mailgunFailed({ recipient: at("jane"), reason: "bounce", messageId: bare }))), 200)
        expect(yield* bounceCountOf(mail.template)).toBe(1)
        expect(yield* bouncesOf(campaign.uuid)).toEqual([])
        expect(yield* suppressed(at("jane"))).toBe("hard_bounce")
        // an unknown message id falls back to the latest mail to the address
        expectStatus(yield* webhook("/feedback/mailgun", signMailgun(mailgunFailed({ recipient: at("joe"), reason: "bounce", messageId: "unknown@example.com" }))), 200)
        expect(yield* bouncesOf(campaign.uuid)).toEqual([[at("joe"), "bounce"]])
      }))

    it.effect("SendGrid: a signed batch applies bounces, blocks and spam reports; a tampered or unsigned body is 401", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { at, list } = yield* listOf(["bounced", "blocked", "spam"])
        const campaign = yield* sendCampaign(list)
        const events = [
          ...sendgridBatch.filter((e) => ["processed", "deferred", "delivered"].includes(e.event)),
          sendgridBounce(at("bounced")),
          sendgridBounce(at("blocked"), "blocked"),
          sendgridSpamReport(at("spam"), { mailroom_send: campaign.sendTo(at("spam")) })
        ]
        const body = JSON.stringify(events)
        const headers = sendgridHeaders(body)
        expectMessageOnly(yield* webhook("/feedback/sendgrid", body.replace("blocked", "bounce"), headers), 401)
        expectMessageOnly(yield* webhook("/feedback/sendgrid", body), 401)
        expect(yield* suppressed(at("bounced"))).toBeNull()

        const r = yield* call("POST", "/feedback/sendgrid", { body, token: null, headers })
        expectStatus(r, 200)
        expect(r.body).toEqual({ recorded: 3, ignored: 3, confirmed: false })
        expect(yield* suppressed(at("bounced"))).toBe("hard_bounce")
        expect(yield* suppressed(at("blocked"))).toBeNull()
        expect(yield* suppressed(at("spam"))).toBe("spam_complaint")
        expect(yield* bouncesOf(campaign.uuid)).toEqual([[at("blocked"), "soft_bounce"], [at("bounced"), "bounce"], [at("spam"), "complaint"]])
        const object = JSON.stringify({ event: "bounce" })
        expectMessageOnly(yield* webhook("/feedback/sendgrid", object, sendgridHeaders(object)), 400)
      }))

    it.effect("hostile bodies to every authenticated webhook answer 4xx or 200, never 5xx, and suppress nothing invalid", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const bodies = [
          "", "null", "[]", "{}", "[1]", "\"x\"", "1e999", "{\"a\":".repeat(40) + "1" + "}".repeat(40), "\uFFFD\u0000",
          JSON.stringify({ RecordType: "Bounce", Type: "HardBounce", Email: 12 }),
          JSON.stringify({ RecordType: "Bounce", Type: "HardBounce", Email: "not-an-address" }),
          JSON.stringify([{ event: "bounce", email: "x".repeat(300) }, { event: "spamreport", email: ["a@b.example"] }]),
          JSON.stringify({ "event-data": { event: "failed", recipient: {} } })
        ]
        for (const body of bodies) {
          const replies = [
            yield* webhook("/feedback/postmark", body, postmarkAuth),
            yield* webhook("/feedback/sendgrid", body, sendgridHeaders(body)),
            yield* webhook("/feedback/mailgun", body),
            yield* webhook("/feedback/ses", body, { "content-type": "text/plain" })
          ]
          for (const r of replies) expect(r.status === 200 || (r.status >= 400 && r.status < 500), `${r.status} ${body.slice(0, 80)}`).toBe(true)
        }
        expect((yield* call("GET", `/api/suppressions?${query({ "filter[search]": "not-an-address" })}`)).body.data).toEqual([])
      }))

    it.effect("the webhooks are in the OpenAPI document without bearer security", () =>
      Effect.gen(function*() {
        const spec = (yield* (yield* TestServer).call("GET", "/api/openapi.json")).body
        for (const path of ["/feedback/ses", "/feedback/postmark", "/feedback/postmark/{secret}", "/feedback/mailgun", "/feedback/sendgrid"]) {
          expect(spec.paths[path]?.post, path).toBeDefined()
          expect(spec.paths[path].post.security ?? [], path).toEqual([])
          expect(Object.keys(spec.paths[path].post.responses), path).toEqual(expect.arrayContaining(["200", "401", "404", "400"]))
        }
      }))
  })
})

describe.each(stores)("provider feedback not configured on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    it.effect("every provider's webhook answers 404 {message} and changes nothing", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const email = `${unique("nobody")}@example.com`
        for (const path of ["/feedback/ses", "/feedback/postmark", "/feedback/postmark/secret", "/feedback/mailgun", "/feedback/sendgrid"]) {
          expectMessageOnly(yield* webhook(path, postmarkBounce({ email })), 404)
        }
        expect((yield* call("GET", `/api/suppressions?${query({ "filter[search]": email })}`)).body.data).toEqual([])
      }))
  })
})
