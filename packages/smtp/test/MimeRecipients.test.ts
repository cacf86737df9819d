import { describe, expect, it } from "@effect/vitest"
import type { MailMessage } from "@mailroom/core"
import { buildMime, MimeError } from "../src/internal/mime.js"
import { decodeWords, parseEml, rawLines } from "./eml.js"

const base: MailMessage = {
  from: { email: "shop@example.com", name: "Shop" },
  to: { email: "ana@example.org", name: "Ana Lima" },
  subject: "Your order",
  html: "<p>Thanks</p>",
  text: "Thanks"
}
const fixed = { date: new Date(Date.UTC(2025, 0, 14, 10, 0, 0)), messageId: "<id-1@example.com>", boundary: "=_b" }

/** The header block of a raw message, as written. */
const head = (raw: Buffer): string => {
  const text = raw.toString("utf8")
  return text.slice(0, text.indexOf("\r\n\r\n") + 2)
}

/** The addresses of an unfolded address header, names decoded. */
const addressList = (value: string): ReadonlyArray<string> => decodeWords(value).split(/,\s*(?=(?:[^"]*"[^"]*")*[^"]*$)/)

describe("buildMime with more recipients", () => {
  it("writes To with to and moreTo, a Cc header, no Bcc header, and every recipient once in the envelope", () => {
    const mail = buildMime({
      ...base,
      moreTo: [{ email: "bo@example.org" }, { email: "li@bücher.example", name: "李雷" }],
      cc: [{ email: "cy@example.org", name: "Smith, Cy" }, { email: "Ana@Example.org" }],
      bcc: [{ email: "audit@example.com", name: "Audit" }, { email: "BO@example.org" }]
    }, fixed)
    expect(head(mail.raw)).toBe(
      "From: Shop <shop@example.com>\r\n" +
        "To: Ana Lima <ana@example.org>, bo@example.org, =?UTF-8?B?5p2O6Zu3?=\r\n" +
        " <li@xn--bcher-kva.example>\r\n" +
        "Cc: \"Smith, Cy\" <cy@example.org>, Ana@Example.org\r\n" +
        "Subject: Your order\r\n" +
        "Date: Tue, 14 Jan 2025 10:00:00 +0000\r\n" +
        "Message-ID: <id-1@example.com>\r\n" +
        "MIME-Version: 1.0\r\n" +
        "Content-Type: multipart/alternative;\r\n boundary=\"=_b\"\r\n"
    )
    // deduplicated without regard to case, first spelling kept, the IDN in punycode
    expect(mail.envelope).toEqual({
      from: "shop@example.com",
      to: ["ana@example.org", "bo@example.org", "li@xn--bcher-kva.example", "cy@example.org", "audit@example.com"]
    })
    expect(mail.raw.toString("latin1")).not.toMatch(/^bcc:/im)
    expect(mail.raw.toString("latin1")).not.toContain("audit@example.com")
  })

  it("without moreTo, cc or bcc writes exactly what it wrote before", () => {
    const single = buildMime(base, fixed)
    expect(buildMime({ ...base, moreTo: [], cc: [], bcc: [] }, fixed).raw.equals(single.raw)).toBe(true)
    expect(single.envelope.to).toEqual(["ana@example.org"])
    expect(head(single.raw)).toContain("\r\nTo: Ana Lima <ana@example.org>\r\nSubject:")
  })

  it("folds long lists after commas in lines of at most 78 characters, and they unfold to every address", () => {
    const moreTo = Array.from({ length: 30 }, (_, i) => ({ email: `person.number.${i}@example.org`, name: i % 3 === 0 ? `Zoë Nº ${i}` : i % 3 === 1 ? `Person ${i}` : null }))
    const cc = Array.from({ length: 12 }, (_, i) => ({ email: `cc${i}@example.net`, name: `"Quoted" ${i}` }))
    const mail = buildMime({ ...base, moreTo, cc })
    const raw = mail.raw.toString("utf8")
    const lines = rawLines(head(mail.raw))
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(78)
    expect(lines.filter((line) => line.startsWith(" ")).length).toBeGreaterThan(10)
    const { headers } = parseEml(raw)
    expect(addressList(headers.get("to")!)).toEqual([
      "Ana Lima <ana@example.org>",
      ...moreTo.map(({ email, name }) => (name === null ? email : `${name} <${email}>`))
    ])
    expect(addressList(headers.get("cc")!)).toEqual(cc.map(({ email }, i) => `"\\"Quoted\\" ${i}" <${email}>`))
    expect(mail.envelope.to).toHaveLength(1 + 30 + 12)
  })

  it("writes the head as UTF-8 when a Cc address has a non-ASCII local part", () => {
    const mail = buildMime({ ...base, cc: [{ email: "josé@example.org" }] })
    expect(mail.raw.toString("utf8")).toContain("\r\nCc: josé@example.org\r\n")
    expect(mail.envelope.to).toEqual(["ana@example.org", "josé@example.org"])
  })

  it("never takes Cc or Bcc from custom headers", () => {
    const raw = buildMime({ ...base, headers: { Cc: "spy@example.net", bcc: "spy@example.net", "X-Ok": "1" } }).raw.toString("utf8")
    expect(raw).not.toContain("spy@example.net")
    expect(parseEml(raw).headers.get("x-ok")).toBe("1")
  })

  it("refuses an invalid To, Cc or Bcc address, naming the field", () => {
    expect(() => buildMime({ ...base, moreTo: [{ email: "bo@example.org\r\nRCPT TO:<x@y>" }] })).toThrow(/Invalid To address/)
    expect(() => buildMime({ ...base, cc: [{ email: "not an address" }] })).toThrow(/Invalid Cc address/)
    expect(() => buildMime({ ...base, bcc: [{ email: "<x@example.org>" }] })).toThrow(MimeError)
    expect(() => buildMime({ ...base, bcc: [{ email: "x@" }] })).toThrow(/Invalid Bcc address/)
  })
})
