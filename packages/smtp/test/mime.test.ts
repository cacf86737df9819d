import { describe, expect, it } from "@effect/vitest"
import type { MailMessage } from "@mailroom/core"
import { buildMime, encodedWords, MimeError } from "../src/internal/mime.js"
import { quotedPrintable } from "../src/internal/MimeBodies.js"
import { htmlToText } from "@mailroom/core"
import { decodeQuotedPrintable, decodeWords, mimeParts, parseEml, rawLines } from "./eml.js"

const base: MailMessage = {
  from: { email: "news@example.com", name: "Mailroom News" },
  to: { email: "ana@example.org", name: "Ana Lima" },
  subject: "Hello",
  html: "<p>Hello <b>Ana</b></p>"
}

/** Builds, checks the line rules, and parses headers and both parts back. */
const roundTrip = (message: MailMessage) => {
  const mail = buildMime(message)
  const raw = mail.raw.toString("utf8")
  for (const line of rawLines(raw)) expect(line.length).toBeLessThanOrEqual(998)
  const { body, headers } = parseEml(raw)
  const boundary = /boundary="([^"]+)"/.exec(headers.get("content-type") ?? "")?.[1]
  expect(boundary).toBeDefined()
  const parts = mimeParts(body, boundary!)
  expect(parts).toHaveLength(2)
  return { mail, raw, headers, text: parts[0]!, html: parts[1]! }
}

/** The header lines of `name` as written (the first line and its continuation lines). */
const headerLines = (raw: string, name: string): ReadonlyArray<string> => {
  const lines = raw.slice(0, raw.indexOf("\r\n\r\n")).split("\r\n")
  const start = lines.findIndex((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
  if (start < 0) return []
  let end = start + 1
  while (end < lines.length && /^[ \t]/.test(lines[end]!)) end++
  return lines.slice(start, end)
}

describe("buildMime", () => {
  it("writes the standard headers, then multipart/alternative with a text and an HTML part", () => {
    const mail = buildMime({ ...base, replyTo: { email: "help@example.com" }, headers: { "List-Unsubscribe": "<https://x.test/u/1>" } }, {
      date: new Date(Date.UTC(2025, 0, 14, 10, 0, 0)),
      messageId: "<id-1@example.com>",
      boundary: "=_b"
    })
    expect(mail.raw.toString("utf8")).toBe(
      "From: Mailroom News <news@example.com>\r\n" +
        "To: Ana Lima <ana@example.org>\r\n" +
        "Reply-To: help@example.com\r\n" +
        "Subject: Hello\r\n" +
        "Date: Tue, 14 Jan 2025 10:00:00 +0000\r\n" +
        "Message-ID: <id-1@example.com>\r\n" +
        "MIME-Version: 1.0\r\n" +
        "List-Unsubscribe: <https://x.test/u/1>\r\n" +
        "Content-Type: multipart/alternative;\r\n boundary=\"=_b\"\r\n" +
        "\r\n" +
        "--=_b\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\n" +
        "Hello Ana\r\n" +
        "--=_b\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
        `${Buffer.from(base.html).toString("base64")}\r\n` +
        "--=_b--\r\n"
    )
    expect(mail.envelope).toEqual({ from: "news@example.com", to: ["ana@example.org"] })
    expect(mail.messageId).toBe("<id-1@example.com>")
  })

  it("generates a Date, a Message-ID at the sender's domain and a new boundary per message", () => {
    const a = roundTrip(base)
    const b = roundTrip(base)
    expect(a.headers.get("message-id")).toMatch(/^<[0-9a-f-]{36}@example\.com>$/)
    expect(a.headers.get("message-id")).toBe(a.mail.messageId)
    expect(a.headers.get("message-id")).not.toBe(b.headers.get("message-id"))
    expect(a.headers.get("content-type")).not.toBe(b.headers.get("content-type"))
    expect(Date.parse(a.headers.get("date")!)).toBeGreaterThan(Date.now() - 60_000)
    expect(a.headers.get("date")).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/)
    expect(a.headers.get("mime-version")).toBe("1.0")
  })

  it("round-trips the HTML byte for byte: line breaks of any kind, dots, non-ASCII, one very long line", () => {
    const html = "<p>Olá José — 😀 &amp; 李雷</p>\n.\r\n..leading dots\rbare CR\n\n<p>" + "x".repeat(50_000) + "</p>\u0000"
    const { html: part, raw } = roundTrip({ ...base, html })
    expect(part.headers.get("content-transfer-encoding")).toBe("base64")
    expect(part.body).toBe(html)
    const section = raw.slice(raw.indexOf("text/html"), raw.lastIndexOf("--=_mr_"))
    const b64 = section.split("\r\n").filter((l) => /^[A-Za-z0-9+/=]+$/.test(l))
    expect(b64.length).toBeGreaterThan(100)
    for (const line of b64.slice(0, -1)) expect(line).toHaveLength(76)
  })

  it("encodes a non-ASCII subject and display names as UTF-8 encoded-words of at most 75 characters", () => {
    const subject = "Olá José, 50% de desconto 🎉 — só hoje! ".repeat(4).trim()
    const message: MailMessage = {
      ...base,
      from: { email: "news@example.com", name: "Café Brasil" },
      to: { email: "li@example.org", name: "李雷 (Li Lei)" },
      replyTo: { email: "help@example.com", name: "Zoë \"Support\"" },
      subject
    }
    const { headers, raw } = roundTrip(message)
    expect(decodeWords(headers.get("subject")!)).toBe(subject)
    expect(decodeWords(headers.get("from")!)).toBe("Café Brasil <news@example.com>")
    expect(decodeWords(headers.get("to")!)).toBe("李雷 (Li Lei) <li@example.org>")
    expect(decodeWords(headers.get("reply-to")!)).toBe("Zoë \"Support\" <help@example.com>")
    for (const name of ["Subject", "From", "To", "Reply-To"]) {
      for (const line of headerLines(raw, name)) {
        expect(line.length).toBeLessThanOrEqual(78)
        for (const word of line.match(/=\?[^?]+\?B\?[^?]*\?=/g) ?? []) expect(word.length).toBeLessThanOrEqual(75)
      }
    }
    expect(headerLines(raw, "Subject").length).toBeGreaterThan(1)
  })

  it("never splits a character between two encoded-words", () => {
    for (const value of ["é".repeat(100), "😀".repeat(40), "a😀".repeat(40), "李".repeat(70)]) {
      const words = encodedWords(value, 9).split("\r\n ")
      expect(words.length).toBeGreaterThan(1)
      for (const word of words) {
        const bytes = Buffer.from(/^=\?UTF-8\?B\?(.*)\?=$/.exec(word)![1]!, "base64")
        expect(bytes.toString("utf8")).not.toContain("\ufffd")
      }
      expect(decodeWords(encodedWords(value, 9))).toBe(value)
    }
  })

  it("keeps plain ASCII names as they are and quotes names with specials", () => {
    const { headers } = roundTrip({
      ...base,
      from: { email: "news@example.com", name: "Smith, John" },
      to: { email: "ana@example.org", name: "O'Brien" },
      replyTo: { email: "help@example.com", name: "Back\\slash \"Q\"" }
    })
    expect(headers.get("from")).toBe("\"Smith, John\" <news@example.com>")
    expect(headers.get("to")).toBe("O'Brien <ana@example.org>")
    expect(headers.get("reply-to")).toBe("\"Back\\\\slash \\\"Q\\\"\" <help@example.com>")
  })

  it("folds a long ASCII subject at spaces and it unfolds to the original", () => {
    const subject = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ")
    const { headers, raw } = roundTrip({ ...base, subject })
    expect(headers.get("subject")).toBe(subject)
    const lines = headerLines(raw, "Subject")
    expect(lines.length).toBeGreaterThan(3)
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(78)
  })

  it("writes words too long to fold, and text that looks like an encoded-word, as encoded-words", () => {
    const long = "x".repeat(1500)
    expect(decodeWords(roundTrip({ ...base, subject: long }).headers.get("subject")!)).toBe(long)
    const tricky = "=?UTF-8?B?SGk=?= is not a greeting"
    expect(decodeWords(roundTrip({ ...base, subject: tricky }).headers.get("subject")!)).toBe(tricky)
  })

  it("keeps line breaks out of headers: no header can be injected", () => {
    const { headers, raw } = roundTrip({
      ...base,
      subject: "Hi\r\nBcc: victim@example.net",
      to: { email: "ana@example.org", name: "Ana\nBcc: x@example.net" },
      headers: { "X-Note": "a\r\n\r\n<html>injected" }
    })
    expect(headers.has("bcc")).toBe(false)
    expect(raw).not.toMatch(/^Bcc:/im)
    expect(headers.get("subject")).toBe("Hi Bcc: victim@example.net")
    expect(headers.get("x-note")).toBe("a <html>injected")
  })

  it("writes custom headers (encoded when non-ASCII); Message-ID and Date may be replaced, structural ones not", () => {
    const { headers, html } = roundTrip({
      ...base,
      headers: {
        "List-Unsubscribe": "<https://x.test/u/abc>, <mailto:unsubscribe@example.com?subject=abc>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "X-Campaign": "Promoção",
        "Message-ID": "<own@example.com>",
        "Content-Type": "text/plain",
        "Subject": "not this one"
      }
    })
    expect(headers.get("list-unsubscribe")).toBe("<https://x.test/u/abc>, <mailto:unsubscribe@example.com?subject=abc>")
    expect(headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click")
    expect(decodeWords(headers.get("x-campaign")!)).toBe("Promoção")
    expect(headers.get("message-id")).toBe("<own@example.com>")
    expect(headers.get("subject")).toBe("Hello")
    expect(headers.get("content-type")).toMatch(/^multipart\/alternative;/)
    expect(html.body).toBe(base.html)
  })

  it("refuses what it cannot write: bad header names, addresses with line breaks or brackets", () => {
    expect(() => buildMime({ ...base, headers: { "X Bad": "1" } })).toThrow(MimeError)
    expect(() => buildMime({ ...base, headers: { "X-Ü": "1" } })).toThrow(MimeError)
    expect(() => buildMime({ ...base, to: { email: "ana@example.org\r\nRCPT TO:<x@y>" } })).toThrow(MimeError)
    expect(() => buildMime({ ...base, to: { email: "<ana@example.org>" } })).toThrow(MimeError)
    expect(() => buildMime({ ...base, from: { email: "no-at-sign" } })).toThrow(MimeError)
  })

  it("writes an internationalised domain in punycode, in the header and the envelope", () => {
    const { headers, mail } = roundTrip({ ...base, to: { email: "ana@bücher.example", name: "Ana Lima" } })
    expect(headers.get("to")).toBe("Ana Lima <ana@xn--bcher-kva.example>")
    expect(mail.envelope.to).toEqual(["ana@xn--bcher-kva.example"])
  })
})

describe("the text part", () => {
  it("is the HTML's text rendering when the message has no text", () => {
    const html = "<h1>News</h1><p>Read <a href=\"https://x.test/a\">this</a>.</p>"
    expect(roundTrip({ ...base, html }).text.body.trim()).toBe(htmlToText(html))
  })

  it("is 7bit (readable as sent) for ASCII text, with CRLF line breaks", () => {
    const text = "Line one\nLine two\r\n.starts with a dot\n\ntrailing  "
    const { text: part, raw } = roundTrip({ ...base, text })
    expect(part.headers.get("content-transfer-encoding")).toBe("7bit")
    expect(raw).toContain("Line one\r\nLine two\r\n.starts with a dot\r\n\r\ntrailing  \r\n")
  })

  it("is quoted-printable for mostly-ASCII text, and decodes back (line breaks as CRLF)", () => {
    const text = `Olá José,\n\n${"Lorem ipsum dolor sit amet = 1 + 1 ".repeat(20)}\nend with space \nand tab\t\n😀`
    const { text: part, raw } = roundTrip({ ...base, text })
    expect(part.headers.get("content-transfer-encoding")).toBe("quoted-printable")
    expect(part.body.replace(/\r\n/g, "\n").replace(/\n$/, "")).toBe(text)
    const body = raw.slice(raw.indexOf("quoted-printable\r\n\r\n") + 20, raw.indexOf("\r\n--=_mr_"))
    for (const line of body.split("\r\n")) {
      expect(line.length).toBeLessThanOrEqual(76)
      expect(line).not.toMatch(/[ \t]$/)
    }
  })

  it("is base64 for text that is mostly not ASCII, or has a line over 998 characters", () => {
    const cjk = "这是一封中文邮件。".repeat(50)
    const a = roundTrip({ ...base, text: cjk }).text
    expect(a.headers.get("content-transfer-encoding")).toBe("base64")
    expect(a.body).toBe(cjk)
    const long = "y".repeat(2000)
    const b = roundTrip({ ...base, text: long }).text
    expect(b.headers.get("content-transfer-encoding")).not.toBe("7bit")
    expect(b.body.replace(/\r?\n$/, "")).toBe(long)
  })

  it("quotedPrintable never splits an escape and escapes '=' and trailing whitespace", () => {
    const text = "é".repeat(100) + " \n" + "=".repeat(80) + "\t"
    const qp = quotedPrintable(text)
    for (const line of qp.split("\r\n")) {
      expect(line.length).toBeLessThanOrEqual(76)
      expect(line.replace(/=[0-9A-F]{2}/g, "").replace(/=$/, "")).not.toContain("=")
    }
    expect(decodeQuotedPrintable(qp).replace(/\r\n/g, "\n").replace(/\n$/, "")).toBe(text)
  })
})

describe("random messages", () => {
  let seed = 42
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff
  const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(random() * items.length)]!
  const pieces = ["a", "word ", "José ", "😀", "李雷", "\n", "\r\n", ".", "=", " ", "\t", "<p>", "&amp;", "x".repeat(300), "\u00a0"]
  const text = (n: number) => Array.from({ length: n }, () => pick(pieces)).join("")

  it("always give CRLF lines of at most 998 octets and decode back to what was sent", () => {
    for (let i = 0; i < 200; i++) {
      const message: MailMessage = {
        from: { email: "news@example.com", name: text(Math.floor(random() * 8)) },
        to: { email: `r${i}@example.org`, name: random() < 0.5 ? null : text(Math.floor(random() * 40)) },
        subject: text(Math.floor(random() * 60)),
        html: text(Math.floor(random() * 400)),
        ...(random() < 0.5 ? { text: text(Math.floor(random() * 400)) } : {}),
        headers: { "X-Token": text(Math.floor(random() * 30)) }
      }
      const { headers, html, text: part } = roundTrip(message)
      expect(html.body).toBe(message.html)
      const sentText = message.text ?? htmlToText(message.html)
      const decoded = part.body.replace(/\r\n/g, "\n")
      const expected = sentText.replace(/\r\n/g, "\n")
      if (part.headers.get("content-transfer-encoding") === "base64") expect(decoded).toBe(expected)
      else expect(decoded.replace(/\n$/, "")).toBe(expected.replace(/\r/g, part.headers.get("content-transfer-encoding") === "7bit" ? "\n" : "\r"))
      const flat = (s: string) => s.replace(/\s*[\r\n]+\s*/g, " ")
      // (header values are compared trimmed: the test parser trims them)
      expect(decodeWords(headers.get("subject")!).trim()).toBe(flat(message.subject).trim())
      expect(decodeWords(headers.get("x-token")!).trim()).toBe(flat(message.headers!["X-Token"]!).trim())
    }
  })
})
