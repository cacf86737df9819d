/**
 * DKIM through the server as `npm start` runs it: the keys of DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY(_FILE)
 * sign every mail kind (verified by an independent verifier, mailauth), and a bad key stops the start with one line.
 */
import { createPublicKey, generateKeyPairSync } from "node:crypto"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { startFaultySmtpServer } from "@mailroom/smtp/testing"
import { dkimVerify } from "mailauth/lib/dkim/verify.js"
import { killAll, startMailroom, startServe, tail } from "./processes.js"

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 })
const ed = generateKeyPairSync("ed25519")
const pem = (key: typeof rsa.privateKey) => key.export({ type: "pkcs8", format: "pem" }).toString()
const records: Record<string, string> = {
  "mr1._domainkey.example.com": `v=DKIM1; k=rsa; p=${createPublicKey(rsa.privateKey).export({ type: "spki", format: "der" }).toString("base64")}`,
  "mr2._domainkey.example.com": `v=DKIM1; k=ed25519; p=${createPublicKey(ed.privateKey).export({ type: "spki", format: "der" }).subarray(-32).toString("base64")}`
}
const resolver = async (name: string) => [[records[name] ?? ""]]
const verdicts = async (raw: string) =>
  (await dkimVerify(Buffer.from(raw), { resolver: resolver as never })).results.map((r: any) => `${r.selector}:${r.status.result}`)

describe("DKIM in the server", () => {
  it("signs campaign, test and confirmation mails with both keys of DKIM_PRIVATE_KEY_FILE", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mailroom-dkim-"))
    const sink = await startFaultySmtpServer({ chunking: true })
    try {
      writeFileSync(join(dir, "dkim.pem"), `${pem(rsa.privateKey)}\n${pem(ed.privateKey)}`)
      const server = await startServe("serve", {
        DATABASE_URL: `sqlite:${join(dir, "m.db")}`,
        API_TOKEN: "dkim-token",
        LOG_REQUESTS: "false",
        SMTP_URL: sink.url,
        DKIM_DOMAIN: "example.com",
        DKIM_SELECTOR: "mr1,mr2",
        DKIM_PRIVATE_KEY_FILE: join(dir, "dkim.pem")
      }, dir)
      const list = (await server.call("POST", "/api/email-lists", { name: "Signed", default_from_email: "news@example.com", requires_confirmation: true })).body.data
      expect((await server.call("POST", `/api/email-lists/${list.uuid}/subscribers`, { email: "ada@example.org", skip_confirmation: true })).status).toBe(201)
      expect((await server.call("POST", `/api/email-lists/${list.uuid}/subscribers`, { email: "new@example.org" })).status).toBe(201)
      const campaign = (await server.call("POST", "/api/campaigns", { name: "Signed", email_list_uuid: list.uuid, html: "<p>Hi {{ subscriber.email }}</p>" })).body.data
      expect((await server.call("POST", `/api/campaigns/${campaign.uuid}/send-test`, { email: "tester@example.org" })).status).toBe(204)
      expect((await server.call("POST", `/api/campaigns/${campaign.uuid}/send`)).status).toBe(204)
      await sink.waitFor(3, 30_000)
      expect(sink.received.map((m) => m.to[0]).sort()).toEqual(["ada@example.org", "new@example.org", "tester@example.org"])
      for (const mail of sink.received) expect(await verdicts(mail.raw), mail.to[0]).toEqual(["mr1:pass", "mr2:pass"])
    } finally {
      await killAll()
      await sink.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it("a bad key ends the start with exit code 1 and one line naming the variable", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mailroom-dkim-bad-"))
    try {
      const short = generateKeyPairSync("rsa", { modulusLength: 1024 })
      const cases: ReadonlyArray<readonly [Record<string, string>, RegExp]> = [
        [{ DKIM_DOMAIN: "example.com", DKIM_SELECTOR: "s", DKIM_PRIVATE_KEY: pem(short.privateKey) }, /^DKIM_PRIVATE_KEY: an RSA DKIM key must have at least 2048 bits \(this one has 1024\)$/m],
        [{ DKIM_DOMAIN: "example.com", DKIM_SELECTOR: "s", DKIM_PRIVATE_KEY_FILE: join(dir, "missing.pem") }, /^DKIM_PRIVATE_KEY_FILE: cannot read /m],
        [{ DKIM_SELECTOR: "s", DKIM_PRIVATE_KEY: pem(ed.privateKey) }, /^DKIM_DOMAIN is missing/m]
      ]
      for (const [env, message] of cases) {
        const proc = startMailroom("serve", "serve", { DATABASE_URL: `sqlite:${join(dir, "m.db")}`, ...env }, dir)
        const { code } = await proc.exited
        expect(code, tail(proc.output())).toBe(1)
        expect(proc.output(), proc.output()).toMatch(message)
        expect(proc.output()).not.toMatch(/^\s+at /m)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
