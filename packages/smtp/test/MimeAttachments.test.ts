import { randomBytes } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import type { MailAttachment, MailMessage } from "@mailroom/core"
import { buildMime, MimeError } from "../src/internal/mime.js"
import { rawLines } from "./eml.js"
import { type MimeNode, parseMime, shape } from "./mimeTree.js"

const base: MailMessage = {
  from: { email: "shop@example.com", name: "Shop" },
  to: { email: "ana@example.org" },
  subject: "Your invoice",
  html: "<p>Logo: <img src=\"cid:logo@shop\"></p>",
  text: "See the invoice."
}
const fixed = { date: new Date(Date.UTC(2025, 0, 14, 10, 0, 0)), messageId: "<id-1@example.com>", boundary: "=_b" }

const png = randomBytes(300)
const pdf = randomBytes(5_000)
const logo: MailAttachment = { name: "logo.png", content: png.toString("base64"), contentType: "image/png", contentId: "<logo@shop>" }
const invoice: MailAttachment = { name: "invoice.pdf", content: pdf.toString("base64"), contentType: "application/pdf" }

/** Builds the message, checks the line rules and parses it back. */
const parsed = (attachments: ReadonlyArray<MailAttachment>, message: MailMessage = base): MimeNode => {
  const raw = buildMime({ ...message, attachments }).raw.toString("utf8")
  for (const line of rawLines(raw)) expect(line.length).toBeLessThanOrEqual(998)
  return parseMime(raw)
}

/** The leaf parts of a tree, depth first. */
const leaves = (node: MimeNode): ReadonlyArray<MimeNode> => (node.parts.length === 0 ? [node] : node.parts.flatMap(leaves))

const alternative = ["multipart/alternative", ["text/plain", "text/html"]]

describe("buildMime with attachments", () => {
  it("writes inline parts in multipart/related and attachments in multipart/mixed around the bodies", () => {
    const mail = buildMime({ ...base, attachments: [{ ...logo, content: Buffer.from("PNG").toString("base64") }, { ...invoice, content: "SGVsbG8=" }] }, fixed)
    expect(mail.raw.toString("utf8")).toBe(
      "From: Shop <shop@example.com>\r\nTo: ana@example.org\r\nSubject: Your invoice\r\nDate: Tue, 14 Jan 2025 10:00:00 +0000\r\n" +
        "Message-ID: <id-1@example.com>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed;\r\n boundary=\"=_b_m\"\r\n\r\n" +
        "--=_b_m\r\nContent-Type: multipart/related;\r\n boundary=\"=_b_r\"\r\n\r\n" +
        "--=_b_r\r\nContent-Type: multipart/alternative;\r\n boundary=\"=_b_a\"\r\n\r\n" +
        "--=_b_a\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\nSee the invoice.\r\n" +
        "--=_b_a\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
        `${Buffer.from(base.html).toString("base64")}\r\n--=_b_a--\r\n` +
        "--=_b_r\r\nContent-Type: image/png;\r\n name=\"logo.png\"\r\nContent-Transfer-Encoding: base64\r\nContent-ID: <logo@shop>\r\n" +
        "Content-Disposition: inline;\r\n filename=\"logo.png\"\r\n\r\nUE5H\r\n--=_b_r--\r\n" +
        "--=_b_m\r\nContent-Type: application/pdf;\r\n name=\"invoice.pdf\"\r\nContent-Transfer-Encoding: base64\r\n" +
        "Content-Disposition: attachment;\r\n filename=\"invoice.pdf\"\r\n\r\nSGVsbG8=\r\n--=_b_m--\r\n"
    )
  })

  it("nests only the levels it needs, and every part decodes back to its bytes", () => {
    expect(shape(parsed([]))).toEqual(alternative)
    expect(shape(parsed([logo]))).toEqual(["multipart/related", [alternative, "image/png"]])
    expect(shape(parsed([invoice]))).toEqual(["multipart/mixed", [alternative, "application/pdf"]])
    const both = parsed([invoice, logo, { ...logo, name: "banner.png", contentId: "banner" }, { ...invoice, name: "terms.pdf" }])
    expect(shape(both)).toEqual(["multipart/mixed", [["multipart/related", [alternative, "image/png", "image/png"]], "application/pdf", "application/pdf"]])
    const [text, html, logoPart, bannerPart, invoicePart, termsPart] = leaves(both)
    expect(text!.body.toString("utf8")).toBe("See the invoice.")
    expect(html!.body.toString("utf8")).toBe(base.html)
    expect(logoPart!.body.equals(png)).toBe(true)
    expect(invoicePart!.body.equals(pdf)).toBe(true)
    expect(logoPart!.headers.get("content-id")).toBe("<logo@shop>")
    expect(bannerPart!.headers.get("content-id")).toBe("<banner>")
    expect(invoicePart!.headers.has("content-id")).toBe(false)
    expect([logoPart, bannerPart, invoicePart, termsPart].map((part) => [part!.disposition?.value, part!.disposition?.params.get("filename"), part!.type.params.get("name")]))
      .toEqual([["inline", "logo.png", "logo.png"], ["inline", "banner.png", "banner.png"], ["attachment", "invoice.pdf", "invoice.pdf"], ["attachment", "terms.pdf", "terms.pdf"]])
    // a boundary is never the start of another (a lenient parser could take one for the other)
    const boundaries = [both, both.parts[0]!, both.parts[0]!.parts[0]!].map((node) => node.type.params.get("boundary")!)
    for (const a of boundaries) for (const b of boundaries) if (a !== b) expect(b.startsWith(a)).toBe(false)
  })

  it("writes file names that are not short printable ASCII as RFC 2231 values, and they decode back", () => {
    const names = [
      "Relatório de março 😀.pdf",
      "李雷的发票 (最终版) — 2025 年 1 月 14 日，请查收，谢谢！这是一个非常长的文件名.pdf",
      "quote\" and back\\slash; semi=colon.txt",
      "=?UTF-8?B?SGk=?=.txt",
      `${"long-ascii-name-".repeat(12)}.csv`,
      "tab\there.txt"
    ]
    const node = parsed(names.map((name) => ({ ...invoice, name })))
    const files = node.parts.slice(1)
    expect(files.map((part) => part.disposition!.params.get("filename"))).toEqual(names)
    expect(files.map((part) => part.type.params.get("name"))).toEqual(names)
    const raw = buildMime({ ...base, attachments: names.map((name) => ({ ...invoice, name })) }).raw.toString("utf8")
    expect(raw).toMatch(/ filename\*=utf-8''Relat%C3%B3rio%20de%20mar%C3%A7o%20%F0%9F%98%80\.pdf\r\n/)
    expect(raw).toMatch(/ filename\*1\*=/)
    expect(raw).toContain(" filename=\"quote\\\" and back\\\\slash; semi=colon.txt\"\r\n")
    for (const line of rawLines(raw)) expect(line.length).toBeLessThanOrEqual(78)
  })

  it("re-wraps the base64 content in lines of 76 characters, without the caller's whitespace, padded", () => {
    const content = pdf.toString("base64").replace(/(.{60})/g, "$1\r\n ")
    const raw = buildMime({ ...base, attachments: [{ ...invoice, content }] }).raw.toString("utf8")
    const body = raw.slice(raw.indexOf("\r\n\r\n", raw.indexOf("application/pdf")) + 4, raw.lastIndexOf("\r\n--"))
    const lines = body.split("\r\n")
    expect(lines.slice(0, -1).every((line) => line.length === 76)).toBe(true)
    expect(lines.join("")).toBe(pdf.toString("base64"))
    const unpadded = parsed([{ ...invoice, content: "SGk" }, { ...invoice, content: "" }])
    expect(unpadded.parts[1]!.body.toString()).toBe("Hi")
    expect(unpadded.parts[2]!.body).toHaveLength(0)
  })

  it("keeps content type parameters, lower-cases the type and drops a name parameter", () => {
    const node = parsed([{ ...invoice, name: "invite.ics", contentType: "Text/Calendar; method=REQUEST ; charset=UTF-8; name=x" }])
    const part = node.parts[1]!
    expect(part.type.value).toBe("text/calendar")
    expect(Object.fromEntries(part.type.params)).toEqual({ method: "REQUEST", charset: "UTF-8", name: "invite.ics" })
  })

  it("refuses invalid content types, content ids and contents with a MimeError", () => {
    const invalid: ReadonlyArray<Partial<MailAttachment>> = [
      { contentType: "image/png\r\nBcc: x@example.net" },
      { contentType: "image" },
      { contentType: "image/\"png\"" },
      { contentType: "image/png; name=\"x.png\"" },
      { contentType: "multipart/mixed" },
      { contentType: "message/rfc822" },
      { contentType: "" },
      { contentType: `image/${"x".repeat(300)}` },
      { contentId: "a b" },
      { contentId: "<a<b>" },
      { contentId: "a>" },
      { contentId: "logo\r\nX: y" },
      { contentId: "logó" },
      { contentId: "<>" },
      { content: "not base64!" },
      { content: "--=_b_m--" },
      { content: "QUJD=" },
      { content: "QUJDR" }
    ]
    for (const change of invalid) expect(() => buildMime({ ...base, attachments: [{ ...logo, ...change }] }), JSON.stringify(change)).toThrow(MimeError)
    expect(() => buildMime({ ...base, attachments: [{ ...logo, contentType: "image/png; x" }] })).toThrow(/Invalid attachment content type: "image\/png; x"/)
    expect(() => buildMime({ ...base, attachments: [{ ...logo, contentId: "a b" }] })).toThrow(/Invalid attachment content id: "a b"/)
    expect(() => buildMime({ ...base, attachments: [{ ...invoice, content: "%%%" }] })).toThrow(/attachment "invoice.pdf" is not base64/)
  })
})
