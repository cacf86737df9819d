/** Provider feedback settings from the environment, and the rules for SNS certificates and subscription URLs. */
import { generateKeyPairSync } from "node:crypto"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either } from "effect"
import { feedbackChecks } from "../src/feedback/feedbackChecks.js"
import { FeedbackSettings } from "../src/feedback/FeedbackSettings.js"
import { fetchedSnsCertificates, isSnsCertificateUrl } from "../src/feedback/snsCertificates.js"

const CERTIFICATE = fileURLToPath(new URL("./fixtures/sns-test-cert.pem", import.meta.url))

const checksFrom = (env: Record<string, string>) =>
  Effect.flatMap(FeedbackSettings, feedbackChecks).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("provider feedback configuration", () => {
  it.effect("no variable: every provider is off", () =>
    Effect.gen(function*() {
      expect(yield* checksFrom({})).toEqual({ ses: null, postmark: null, mailgun: null, sendgrid: null })
    }))

  it.effect("each provider is on when its variables are set", () =>
    Effect.gen(function*() {
      const key = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey.export({ format: "der", type: "spki" }).toString("base64")
      const checks = yield* checksFrom({
        SES_SNS_TOPIC_ARNS: "arn:aws:sns:us-east-1:1:a, arn:aws:sns:us-east-1:1:b",
        SES_SNS_CERTIFICATES: CERTIFICATE,
        POSTMARK_WEBHOOK_SECRET: "s",
        MAILGUN_WEBHOOK_SIGNING_KEY: "k",
        SENDGRID_WEBHOOK_PUBLIC_KEY: key
      })
      expect(Object.values(checks).every((check) => check !== null)).toBe(true)
      expect((yield* checksFrom({ SES_SNS_ENABLED: "true" })).ses).not.toBeNull()
      expect((yield* checksFrom({ POSTMARK_WEBHOOK_USER: "u" })).postmark).toBeNull()
      expect((yield* checksFrom({ POSTMARK_WEBHOOK_USER: "u", POSTMARK_WEBHOOK_PASSWORD: "p" })).postmark).not.toBeNull()
    }))

  it.effect("an unusable SendGrid key, certificate path or subscribe origin fails at startup naming the variable", () =>
    Effect.gen(function*() {
      const sendgrid = yield* Effect.either(checksFrom({ SENDGRID_WEBHOOK_PUBLIC_KEY: "bm90IGEga2V5" }))
      expect(Either.isLeft(sendgrid) && sendgrid.left.message).toContain("SENDGRID_WEBHOOK_PUBLIC_KEY")
      const certificates = yield* Effect.either(checksFrom({ SES_SNS_ENABLED: "true", SES_SNS_CERTIFICATES: "/nonexistent/certs" }))
      expect(Either.isLeft(certificates) && certificates.left.message).toContain("SES_SNS_CERTIFICATES")
      expect(Either.isLeft(yield* Effect.either(checksFrom({ SES_SNS_SUBSCRIBE_ORIGIN: "not a url" })))).toBe(true)
    }))
})

describe("SNS certificates", () => {
  it("only https .pem files on sns.<region>.amazonaws.com are fetched", () => {
    expect(isSnsCertificateUrl(new URL("https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-abc.pem"))).toBe(true)
    for (const url of [
      "http://sns.eu-west-1.amazonaws.com/SimpleNotificationService-abc.pem",
      "https://sns.eu-west-1.amazonaws.com.evil.example/x.pem",
      "https://evil.example/sns.eu-west-1.amazonaws.com/x.pem",
      "https://s3.amazonaws.com/x.pem",
      "https://sns.eu-west-1.amazonaws.com:8443/x.pem",
      "https://sns.eu-west-1.amazonaws.com/x.txt"
    ]) expect(isSnsCertificateUrl(new URL(url)), url).toBe(false)
  })

  it.effect("a fetched certificate is kept by URL; a failed fetch is not", () =>
    Effect.gen(function*() {
      const pem = readFileSync(CERTIFICATE, "utf8")
      const fetched: Array<string> = []
      let fail = true
      const certificates = fetchedSnsCertificates(async (url) => {
        fetched.push(url.pathname)
        if (fail) throw new Error("offline")
        return pem
      })
      const url = new URL("https://sns.us-east-1.amazonaws.com/a.pem")
      expect(Either.isLeft(yield* Effect.either(certificates(url)))).toBe(true)
      fail = false
      expect(yield* certificates(url)).toHaveLength(1)
      expect(yield* certificates(url)).toHaveLength(1)
      expect(fetched).toEqual(["/a.pem", "/a.pem"])
    }))
})
