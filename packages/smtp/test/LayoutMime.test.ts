import { describe, expect, it } from "@effect/vitest"
import { fillLayout, type LayoutMail, type MailLayout } from "@mailroom/core"
import { buildLayoutMime, prepareLayout } from "../src/internal/LayoutMime.js"
import { buildMime } from "../src/internal/mime.js"
import { qpPiece } from "../src/internal/MimeBodies.js"
import { decodeQuotedPrintable, mimeParts, parseEml, rawLines } from "./eml.js"

let seed = 7
const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff
const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(random() * items.length)]!
const bits = ["a", "word ", "José ", "😀", "李雷", "\n", "\r\n", ".", "..", "=", " ", "\t", "<p class=\"x\">", "&amp;", "y".repeat(90), "=3D", "\u00a0"]
const text = (n: number) => Array.from({ length: n }, () => pick(bits)).join("")

/** Every line of quoted-printable output: printable ASCII, at most 76 characters, nothing after a final `=`. */
const expectQpLines = (encoded: string) => {
  expect(encoded).toMatch(/^[\x20-\x7e\r\n\t]*$/)
  for (const line of encoded.split("\r\n")) expect(line.length).toBeLessThanOrEqual(76)
}

describe("qpPiece", () => {
  it("encodes pieces that decode back to their concatenation, in lines of at most 76", () => {
    for (let i = 0; i < 300; i++) {
      const pieces = Array.from({ length: 1 + Math.floor(random() * 6) }, () => text(Math.floor(random() * 40)))
      const encoded = pieces.map(qpPiece).join("")
      expectQpLines(encoded)
      expect(encoded).not.toMatch(/(?<!\r)\n|\r(?!\n)/)
      expect(decodeQuotedPrintable(encoded)).toBe(pieces.join("").replace(/\r\n/g, "\n").replace(/\n/g, "\r\n"))
    }
  })

  it("writes short plain values as they are, with a soft break after them", () => {
    expect(qpPiece("Ana")).toBe("Ana=\r\n")
    expect(qpPiece("")).toBe("")
    expect(qpPiece("a=b")).toBe("a=3Db=\r\n")
    expect(qpPiece("line\n")).toBe("line\r\n")
    expect(qpPiece(" padded ")).toBe(" padded =\r\n")
  })
})

const asciiMail: LayoutMail = {
  from: { email: "news@example.com", name: "Mailroom News" },
  to: { email: "zoe@example.org", name: null },
  replyTo: { email: "help@example.com", name: null },
  subject: "Hello Zoë",
  headers: { "List-Unsubscribe": "<https://mail.example.com/u/1/sig>" },
  values: ["Zoë & Ana", "https://mail.example.com/t/c/abc/1/sig", "x".repeat(200), ""]
}
const utf8Mail: LayoutMail = { ...asciiMail, to: { email: "zoë@example.org", name: null } }

describe("buildLayoutMime", () => {
  it("gives the same headers as buildMime and bodies that decode to the filled layout", () => {
    // the second mail's address is not ASCII (SMTPUTF8), so its bytes are UTF-8 where the first's are one per character
    for (let i = 0; i < 200; i++) {
      const mail = i % 2 === 0 ? asciiMail : utf8Mail
      const layout: MailLayout = {
        html: Array.from({ length: 1 + Math.floor(random() * 12) }, () => (random() < 0.3 ? Math.floor(random() * 4) : text(Math.floor(random() * 60)))),
        text: Array.from({ length: Math.floor(random() * 8) }, () => (random() < 0.3 ? Math.floor(random() * 4) : text(Math.floor(random() * 60))))
      }
      const options = { boundary: "=_mr_test", date: new Date(Date.UTC(2026, 10, 23, 9, 0, 0)), messageId: "<m@example.com>" }
      const built = buildLayoutMime(prepareLayout(layout), mail, options)
      expect(built.dotStuffed).toBe(true)
      const stuffed = rawLines(built.raw.toString("utf8"))
      const bodyStart = stuffed.indexOf("")
      // dot-stuffed as it goes on the wire: a doubled dot can make a line one longer
      for (const line of stuffed.slice(bodyStart)) expect(line.replace(/^\.\./, ".").length).toBeLessThanOrEqual(76)
      const raw = stuffed.map((line) => (line.startsWith(".") ? line.slice(1) : line)).join("\r\n")
      expect(stuffed.every((line) => !line.startsWith(".") || line.startsWith(".."))).toBe(true)
      const plain = buildLayoutMime(prepareLayout(layout), mail, { ...options, dotStuff: false })
      expect(plain.dotStuffed).toBe(false)
      expect(plain.raw.toString("utf8")).toBe(raw)
      const { body, headers } = parseEml(raw)
      const reference = parseEml(buildMime({ ...mail, html: "", text: "" }, options).raw.toString("utf8")).headers
      expect(headers).toEqual(reference)
      const parts = mimeParts(body, "=_mr_test")
      expect(parts.map((part) => part.headers.get("content-transfer-encoding"))).toEqual(["quoted-printable", "quoted-printable"])
      const decoded = (s: string) => s.replace(/\r\n/g, "\n").replace(/\n$/, "")
      expect(decoded(parts[0]!.body)).toBe(fillLayout(layout.text, mail.values).replace(/\r\n/g, "\n"))
      expect(decoded(parts[1]!.body)).toBe(fillLayout(layout.html, mail.values).replace(/\r\n/g, "\n"))
      expect(built.envelope).toEqual({ from: "news@example.com", to: [mail.to.email] })
    }
  })

  it("is at least 10 % smaller than the base64 message for ASCII HTML", () => {
    const html = "<p style=\"color:#333\">Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>\n".repeat(300)
    const layout: MailLayout = { html: ["<h1>Hi ", 0, "</h1>", html], text: ["Hi ", 0, "\n", html.replace(/<[^>]+>/g, "")] }
    const bulk = buildLayoutMime(prepareLayout(layout), asciiMail).raw.length
    const whole = buildMime({ ...asciiMail, html: fillLayout(layout.html, asciiMail.values), text: fillLayout(layout.text, asciiMail.values) }).raw.length
    expect(bulk).toBeLessThan(whole * 0.9)
  })
})
