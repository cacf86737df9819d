/** Signed provider webhooks for the feedback tests: a test SNS certificate, Mailgun's HMAC, SendGrid's ECDSA key. */
import { createHmac, generateKeyPairSync, randomBytes, sign } from "node:crypto"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { fileURLToPath } from "node:url"
import { decodeSnsMessage, snsStringToSign } from "@mailroom/core"
import { Context, Effect, Either, Layer, Option, Redacted } from "effect"
import { feedbackChecks } from "../src/feedback/feedbackChecks.js"
import { expectStatus, query, unique } from "./expectations.js"
import { type Reply, type Store, TestServer, TestServerLive } from "./TestServer.js"

/** The topic the test server takes SES feedback from. */
export const TOPIC = "arn:aws:sns:us-west-2:123456789012:MyTopic"
/** Postmark's credentials on the test server. */
export const POSTMARK = { user: "postmark", password: "pm-password", secret: "pm-secret-path" }
/** Mailgun's webhook signing key on the test server. */
export const MAILGUN_KEY = "mg-signing-key"

const CERTIFICATE = fileURLToPath(new URL("./fixtures/sns-test-cert.pem", import.meta.url))
const SNS_KEY = readFileSync(fileURLToPath(new URL("./fixtures/sns-test-key.pem", import.meta.url)), "utf8")
const sendgrid = generateKeyPairSync("ec", { namedCurve: "prime256v1" })

/** Signs an SNS envelope with the test certificate's key (version 1: SHA1withRSA, 2: SHA256withRSA). */
export const signSns = <A extends { readonly SignatureVersion: string }>(envelope: A): A => {
  const text = Either.getOrThrow(Either.flatMap(decodeSnsMessage(envelope), snsStringToSign))
  const hash = envelope.SignatureVersion === "1" ? "sha1" : "sha256"
  return { ...envelope, Signature: sign(hash, Buffer.from(text), SNS_KEY).toString("base64") }
}

/** A Mailgun webhook body with a fresh signature (or the given timestamp) under `key`. */
export const signMailgun = <A extends { readonly signature: object }>(body: A, options: { readonly key?: string; readonly timestamp?: number } = {}): A => {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000))
  const token = randomBytes(25).toString("hex")
  const signature = createHmac("sha256", options.key ?? MAILGUN_KEY).update(timestamp + token).digest("hex")
  return { ...body, signature: { timestamp, token, signature } }
}

/** SendGrid's signature headers for a raw body, signed with the test key. */
export const sendgridHeaders = (body: string): Record<string, string> => {
  const timestamp = String(Math.floor(Date.now() / 1000))
  const signature = sign("sha256", Buffer.concat([Buffer.from(timestamp), Buffer.from(body)]), sendgrid.privateKey)
  return {
    "x-twilio-email-event-webhook-signature": signature.toString("base64"),
    "x-twilio-email-event-webhook-timestamp": timestamp
  }
}

/** A `Basic` Authorization header. */
export const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`

/** The local HTTP server SubscribeURLs point at in tests, and the paths it was asked for. */
export class SubscribeSink extends Context.Tag("test/SubscribeSink")<SubscribeSink, {
  readonly origin: string
  readonly requested: Array<string>
}>() {}

const sink = Effect.acquireRelease(
  Effect.async<{ origin: string; requested: Array<string>; close: () => void }>((resume) => {
    const requested: Array<string> = []
    const server = createServer((request, response) => {
      requested.push(`${request.method} ${request.url}`)
      response.writeHead(200, { "content-type": "text/xml" }).end("<ConfirmSubscriptionResponse/>")
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      resume(Effect.succeed({ origin: `http://127.0.0.1:${port}`, requested, close: () => server.close() }))
    })
  }),
  (s) => Effect.sync(s.close)
)

/** A test server with every provider configured (SES with the test certificate and the sink as SubscribeURL origin). */
export const ProvidersServerLive = (store: Store): Layer.Layer<TestServer | SubscribeSink> =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const subscribe = yield* sink
    const checks = yield* Effect.orDie(feedbackChecks({
      sesEnabled: false,
      sesTopicArns: [TOPIC],
      sesCertificates: CERTIFICATE,
      sesSubscribeOrigin: subscribe.origin,
      postmarkUser: POSTMARK.user,
      postmarkPassword: Option.some(Redacted.make(POSTMARK.password)),
      postmarkSecret: Option.some(Redacted.make(POSTMARK.secret)),
      mailgunSigningKey: Option.some(Redacted.make(MAILGUN_KEY)),
      sendgridPublicKey: sendgrid.publicKey.export({ format: "der", type: "spki" }).toString("base64")
    }))
    return Layer.merge(
      TestServerLive(store, { feedback: checks }),
      Layer.succeed(SubscribeSink, { origin: subscribe.origin, requested: subscribe.requested })
    )
  }))

/** POSTs a provider's webhook (no bearer token): a JSON value or a raw string, with the provider's headers. */
export const webhook = (path: string, body: unknown, headers: Record<string, string> = {}): Effect.Effect<Reply, never, TestServer> =>
  Effect.flatMap(TestServer, ({ call }) => call("POST", path, { body, token: null, headers }))

/** A list on a fresh domain with these subscribed members (local parts); the list's uuid and the domain. */
export const listOf = (locals: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const { call } = yield* TestServer
    const domain = `${unique("fb")}.example`
    const list = yield* call("POST", "/api/email-lists", { body: { name: unique("Feedback "), default_from_email: `news@${domain}` } })
    expectStatus(list, 201)
    for (const local of locals) {
      expectStatus(yield* call("POST", `/api/email-lists/${list.body.data.uuid}/subscribers`, { body: { email: `${local}@${domain}` } }), 201)
    }
    return { list: list.body.data.uuid as string, domain, at: (local: string) => `${local}@${domain}` }
  })

/** Sends a campaign to the list and delivers it; its uuid and the send uuid of each address. */
export const sendCampaign = (listUuid: string) =>
  Effect.gen(function*() {
    const { call, deliver } = yield* TestServer
    const c = yield* call("POST", "/api/campaigns", { body: { name: unique("F "), email_list_uuid: listUuid, subject: "Hi", html: "<p>Hi</p>" } })
    expectStatus(c, 201)
    expectStatus(yield* call("POST", `/api/campaigns/${c.body.data.uuid}/send`), 204)
    yield* deliver
    const sends = (yield* call("GET", `/api/sends?${query({ "filter[campaign_uuid]": c.body.data.uuid })}`)).body.data as Array<any>
    return { uuid: c.body.data.uuid as string, sendTo: (email: string) => sends.find((s) => s.subscriber_email === email)?.uuid as string }
  })

/** The suppression reason of an address, or null. */
export const suppressed = (email: string) =>
  Effect.map(Effect.flatMap(TestServer, ({ call }) => call("GET", `/api/suppressions/${email}`)), (r) => (r.status === 200 ? r.body.data.reason : null))

/** The campaign's bounces as [address, type] pairs. */
export const bouncesOf = (campaign: string) =>
  Effect.map(
    Effect.flatMap(TestServer, ({ call }) => call("GET", `/api/campaigns/${campaign}/bounces?sort=email`)),
    (r) => (r.body.data as Array<any>).map((b) => [b.subscriber_email, b.type])
  )

/** Whether the list's member with this address is still subscribed. */
export const isSubscribed = (listUuid: string, email: string) =>
  Effect.map(
    Effect.flatMap(TestServer, ({ call }) => call("GET", `/api/email-lists/${listUuid}/subscribers?${query({ "filter[email]": email })}`)),
    (r) => r.body.data[0]?.unsubscribed_at === null
  )
