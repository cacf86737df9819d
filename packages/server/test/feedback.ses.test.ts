/**
 * Amazon SES feedback over SNS, through a real server: signed notifications go through the bounce policy, anything
 * not signed by the (test) SNS certificate or from another topic is refused, and subscriptions are confirmed.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { sesBounce, sesComplaint, sesMail, snsNotification, snsSubscriptionConfirmation } from "../../core/test/feedback/payloads/sesPayloads.js"
import { expectMessageOnly, expectStatus } from "./expectations.js"
import {
  bouncesOf,
  isSubscribed,
  listOf,
  ProvidersServerLive,
  sendCampaign,
  signSns,
  SubscribeSink,
  suppressed,
  TOPIC,
  webhook
} from "./feedback.support.js"
import { stores, TestServer } from "./TestServer.js"

const SNS_HEADERS = { "content-type": "text/plain; charset=UTF-8", "x-amz-sns-message-type": "Notification" }

/** POSTs an SNS envelope as SNS does (JSON in a text/plain body), or a raw text. */
const sns = (envelope: unknown) =>
  webhook("/feedback/ses", typeof envelope === "string" ? envelope : JSON.stringify(envelope), SNS_HEADERS)

/** A signed SNS notification carrying an SES notification. */
const signed = (notification: object, version: "1" | "2" = "1") =>
  signSns({ ...snsNotification(JSON.stringify(notification), TOPIC), SignatureVersion: version })

describe.each(stores)("SES feedback over SNS on %s", (store) => {
  layer(ProvidersServerLive(store), { excludeTestServices: true })((it) => {
    it.effect("a signed bounce naming its send (X-Mailroom-Send) suppresses, unsubscribes and counts on that campaign", () =>
      Effect.gen(function*() {
        const { at, list } = yield* listOf(["gone", "calm"])
        const first = yield* sendCampaign(list)
        const second = yield* sendCampaign(list)
        const mail = sesMail([{ name: "X-Mailroom-Send", value: first.sendTo(at("gone")) }])
        const r = yield* sns(signed(sesBounce({ recipients: [at("gone")], mail })))
        expectStatus(r, 200)
        expect(r.body).toEqual({ recorded: 1, ignored: 0, confirmed: false })
        expect(yield* suppressed(at("gone"))).toBe("hard_bounce")
        expect(yield* isSubscribed(list, at("gone"))).toBe(false)
        expect(yield* isSubscribed(list, at("calm"))).toBe(true)
        expect(yield* bouncesOf(first.uuid)).toEqual([[at("gone"), "bounce"]])
        expect(yield* bouncesOf(second.uuid)).toEqual([])
      }))

    it.effect("a transient bounce only counts; a complaint signed with version 2 suppresses as a spam complaint (latest mail)", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { at, list } = yield* listOf(["full", "angry"])
        const campaign = yield* sendCampaign(list)
        expectStatus(yield* sns(signed(sesBounce({ bounceType: "Transient", recipients: [at("full")] }), "2")), 200)
        expect(yield* suppressed(at("full"))).toBeNull()
        expect(yield* isSubscribed(list, at("full"))).toBe(true)
        const r = yield* sns(signed(sesComplaint({ recipients: [at("angry")] }), "2"))
        expect(r.body).toEqual({ recorded: 1, ignored: 0, confirmed: false })
        expect(yield* suppressed(at("angry"))).toBe("spam_complaint")
        expect(yield* bouncesOf(campaign.uuid)).toEqual([[at("angry"), "complaint"], [at("full"), "soft_bounce"]])
        const unsubscribes = (yield* call("GET", `/api/campaigns/${campaign.uuid}/unsubscribes`)).body.data as Array<any>
        expect(unsubscribes.map((u) => u.subscriber_email)).toEqual([at("angry")])
      }))

    it.effect("a tampered or unsigned message, another topic or a certificate off SNS answer 401 and change nothing", () =>
      Effect.gen(function*() {
        const { at, list } = yield* listOf(["target"])
        yield* sendCampaign(list)
        const good = signed(sesBounce({ recipients: [at("target")] }))
        const tampered = { ...good, Message: good.Message.replace("Permanent", "Transient") }
        const foreign = signSns({ ...snsNotification(good.Message, "arn:aws:sns:us-west-2:999999999999:Other"), SignatureVersion: "1" })
        const offSns = signSns({ ...snsNotification(good.Message, TOPIC), SigningCertURL: "https://evil.example/SimpleNotificationService-x.pem" })
        const v2AsV1 = { ...signed(sesBounce({ recipients: [at("target")] }), "2"), SignatureVersion: "1" }
        for (const envelope of [tampered, { ...good, Signature: "" }, foreign, offSns, v2AsV1]) {
          expectMessageOnly(yield* sns(envelope), 401)
        }
        expect(yield* suppressed(at("target"))).toBeNull()
        expect(yield* isSubscribed(list, at("target"))).toBe(true)
      }))

    it.effect("a SubscriptionConfirmation GETs its SubscribeURL and answers 200; one pointing elsewhere is refused", () =>
      Effect.gen(function*() {
        const { origin, requested } = yield* SubscribeSink
        const url = `${origin}/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(TOPIC)}&Token=2336412f37`
        const r = yield* sns(signSns(snsSubscriptionConfirmation(url, TOPIC)))
        expectStatus(r, 200)
        expect(r.body).toEqual({ recorded: 0, ignored: 0, confirmed: true })
        expect(requested).toEqual([`GET /?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(TOPIC)}&Token=2336412f37`])
        expectMessageOnly(yield* sns(signSns(snsSubscriptionConfirmation("http://127.0.0.2:9/confirm", TOPIC))), 400)
        expectMessageOnly(yield* sns(signSns(snsSubscriptionConfirmation(url, "arn:aws:sns:us-west-2:999999999999:Other"))), 401)
        expect(requested).toHaveLength(1)
      }))

    it.effect("bodies that are not SNS messages answer 400 {message}", () =>
      Effect.gen(function*() {
        expectMessageOnly(yield* sns("not json"), 400)
        expectMessageOnly(yield* sns({ Type: "Notification" }), 400)
        expectMessageOnly(yield* sns(signSns({ ...snsNotification("not json", TOPIC) })), 400)
        expectMessageOnly(yield* sns(signSns({ ...snsNotification(JSON.stringify({ mail: {} }), TOPIC) })), 400)
      }))
  })
})
