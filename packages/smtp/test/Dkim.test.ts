import { createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Mailer, type MailLayout, type MailMessage } from "@mailroom/core"
import { checkDkimKey, type DkimKey, DkimKeyError, pemKeys, SmtpMailer } from "@mailroom/smtp"
import { type FaultySmtpServer, startFaultySmtpServer } from "@mailroom/smtp/testing"
import { Context, Effect, Layer } from "effect"
import { dkimVerify } from "mailauth/lib/dkim/verify.js"

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 })
const ed = generateKeyPairSync("ed25519")
const pem = (key: typeof rsa.privateKey) => key.export({ type: "pkcs8", format: "pem" }).toString()
const keys: ReadonlyArray<DkimKey> = [
  { domain: "example.com", selector: "rsa2026", privateKey: pem(rsa.privateKey) },
  { domain: "example.com", selector: "ed2026", privateKey: pem(ed.privateKey) }
]

/** The DNS records of the two selectors, as an independent verifier looks them up. */
const records: Record<string, string> = {
  "rsa2026._domainkey.example.com": `v=DKIM1; k=rsa; p=${createPublicKey(rsa.privateKey).export({ type: "spki", format: "der" }).toString("base64")}`,
  "ed2026._domainkey.example.com": `v=DKIM1; k=ed25519; p=${createPublicKey(ed.privateKey).export({ type: "spki", format: "der" }).subarray(-32).toString("base64")}`
}
const resolver = async (name: string) => {
  const record = records[name]
  if (record === undefined) throw Object.assign(new Error(`no record ${name}`), { code: "ENOTFOUND" })
  return [[record]]
}

/** The DKIM results of a message: domain, selector, algorithm and whether it passed. */
const verify = async (raw: string) =>
  (await dkimVerify(Buffer.from(raw), { resolver: resolver as never })).results.map((r: any) => ({
    selector: r.selector,
    algorithm: r.algo,
    result: r.status.result,
    headers: (r.signingHeaders?.keys ?? "").toLowerCase()
  }))

const message: MailMessage = {
  from: { email: "news@example.com", name: "News" },
  to: { email: "ana@example.org", name: "Ana" },
  replyTo: { email: "help@example.com" },
  subject: "Signed  mail",
  html: "<p>Hello   Ana,</p>\n<p>.a dot line, trailing spaces   </p>",
  headers: {
    "List-Unsubscribe": "<https://mail.example.com/u/abc>",
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    "List-ID": "<list.mail.example.com>",
    "X-Mailroom-Send": "0190a3d2-0000-7000-8000-000000000001"
  }
}
const layout: MailLayout = { html: ["<p>Hi ", 0, ", see <a href=\"", 1, "\">this</a></p>"], text: ["Hi ", 0, ", see this (", 1, ")"] }

const faulty = (chunking: boolean) =>
  Effect.acquireRelease(Effect.promise(() => startFaultySmtpServer({ chunking })), (server) => Effect.promise(() => server.close()))
const mailerOn = (server: FaultySmtpServer, dkim: ReadonlyArray<DkimKey>) =>
  Effect.map(Layer.build(SmtpMailer({ url: server.url, dkim })), Context.get(Mailer))

describe.each([false, true])("DKIM signing (CHUNKING %s)", (chunking) => {
  it.scopedLive("every mail, whole or from a layout, carries an RSA and an Ed25519 signature an independent verifier passes", () =>
    Effect.gen(function*() {
      const server = yield* faulty(chunking)
      const mailer = yield* mailerOn(server, keys)
      yield* mailer.send(message)
      const send = mailer.prepare!(layout)
      yield* send({ ...message, values: ["Zoë", "https://mail.example.com/t/c/x/1/y"] })
      expect(server.received).toHaveLength(2)
      for (const mail of server.received) {
        const results = yield* Effect.promise(() => verify(mail.raw))
        expect(results.map(({ algorithm, result, selector }) => [selector, algorithm, result])).toEqual([
          ["rsa2026", "rsa-sha256", "pass"],
          ["ed2026", "ed25519-sha256", "pass"]
        ])
        for (const header of ["from", "to", "subject", "date", "message-id", "mime-version", "content-type", "list-unsubscribe", "list-unsubscribe-post", "list-id"]) {
          expect(results[0]!.headers.split(/:\s*/)).toContain(header)
        }
        expect(mail.raw).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=example.com;/)
      }
      // a changed body or subject no longer passes
      for (const tampered of [server.received[0]!.raw.replace("Hello", "Jello"), server.received[0]!.raw.replace("Signed", "Signet")]) {
        expect(tampered).not.toBe(server.received[0]!.raw)
        expect((yield* Effect.promise(() => verify(tampered))).map((r) => r.result)).not.toContain("pass")
      }
    }), { timeout: 20_000 })

  it.scopedLive("a mail with more recipients, an inline part and an attachment is signed, Cc included, and verifies", () =>
    Effect.gen(function*() {
      const server = yield* faulty(chunking)
      const mailer = yield* mailerOn(server, keys)
      yield* mailer.send({
        ...message,
        moreTo: [{ email: "bo@example.org", name: "Bó" }],
        cc: [{ email: "cy@example.org" }],
        bcc: [{ email: "audit@example.com" }],
        html: "<p>Hello <img src=\"cid:logo\"></p>\n.dot line",
        attachments: [
          { name: "logo.png", content: randomBytes(2_000).toString("base64"), contentType: "image/png", contentId: "logo" },
          { name: "Relatório março.pdf", content: randomBytes(50_000).toString("base64"), contentType: "application/pdf" }
        ]
      })
      const [mail] = server.received
      expect(mail!.to).toEqual(["ana@example.org", "bo@example.org", "cy@example.org", "audit@example.com"])
      const results = yield* Effect.promise(() => verify(mail!.raw))
      expect(results.map(({ algorithm, result }) => [algorithm, result])).toEqual([["rsa-sha256", "pass"], ["ed25519-sha256", "pass"]])
      expect(results[0]!.headers.split(/:\s*/)).toContain("cc")
      const tampered = mail!.raw.replace(/^(Content-Disposition: attachment;\r\n filename\*=utf-8'')Relat/m, "$1Xelat")
      expect(tampered).not.toBe(mail!.raw)
      expect((yield* Effect.promise(() => verify(tampered))).map((r) => r.result)).not.toContain("pass")
    }), { timeout: 20_000 })
})

describe("DKIM keys", () => {
  it("refuses short RSA keys, other key types and bad domains or selectors, saying why", () => {
    const short = generateKeyPairSync("rsa", { modulusLength: 1024 })
    const ec = generateKeyPairSync("ec", { namedCurve: "prime256v1" })
    expect(checkDkimKey(keys[0]!).type).toBe("rsa")
    expect(checkDkimKey(keys[1]!).type).toBe("ed25519")
    expect(() => checkDkimKey({ ...keys[0]!, privateKey: pem(short.privateKey) })).toThrow(/at least 2048 bits \(this one has 1024\)/)
    expect(() => checkDkimKey({ ...keys[0]!, privateKey: pem(ec.privateKey) })).toThrow(/must be RSA or Ed25519, not ec/)
    expect(() => checkDkimKey({ ...keys[0]!, privateKey: "not a key" })).toThrow(DkimKeyError)
    expect(() => checkDkimKey({ ...keys[0]!, domain: "not a domain" })).toThrow(/is not a domain name/)
    expect(() => checkDkimKey({ ...keys[0]!, selector: "a b" })).toThrow(/selector/)
    expect(pemKeys(`${keys[0]!.privateKey}\n${keys[1]!.privateKey}`)).toHaveLength(2)
  })
})
