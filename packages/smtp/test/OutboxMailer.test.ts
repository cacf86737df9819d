import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Mailer } from "@mailroom/core"
import { OutboxMailer } from "@mailroom/smtp"
import { Context, Effect, Layer } from "effect"
import { mimeParts, parseEml } from "./eml.js"
import { parseMime, shape } from "./mimeTree.js"

const tempDir = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "mailroom-outbox-"))),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
)

describe("OutboxMailer", () => {
  it.scoped("writes one complete .eml per message into a directory it creates", () =>
    Effect.gen(function*() {
      const directory = join(yield* tempDir, "nested", "outbox")
      const mailer = yield* Effect.map(Layer.build(OutboxMailer({ directory })), Context.get(Mailer))
      yield* mailer.send({
        from: { email: "news@example.com", name: "Mailroom" },
        to: { email: "ana@example.org" },
        subject: "Weekly digest",
        html: "<p>Digest <i>body</i></p>",
        headers: { "List-Unsubscribe": "<https://example.com/u/1>", "X-Campaign-Id": "7" }
      })
      yield* mailer.send({ from: { email: "a@example.com" }, to: { email: "b@example.org" }, subject: "Second", html: "<p>2</p>" })

      const files = (yield* Effect.promise(() => readdir(directory))).sort()
      expect(files).toHaveLength(2)
      for (const file of files) expect(file).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{12}\.eml$/)

      const emls = yield* Effect.forEach(files, (f) => Effect.promise(() => readFile(join(directory, f), "utf8")))
      const digest = parseEml(emls.find((raw) => raw.includes("Weekly digest"))!)
      expect(digest.headers.get("subject")).toBe("Weekly digest")
      expect(digest.headers.get("from")).toBe("Mailroom <news@example.com>")
      expect(digest.headers.get("to")).toBe("ana@example.org")
      expect(digest.headers.get("list-unsubscribe")).toBe("<https://example.com/u/1>")
      expect(digest.headers.get("x-campaign-id")).toBe("7")
      expect(digest.headers.get("mime-version")).toBe("1.0")
      expect(digest.headers.get("message-id")).toMatch(/^<.+@.+>$/)
      const boundary = /boundary="?([^";]+)"?/.exec(digest.headers.get("content-type") ?? "")?.[1]
      const parts = mimeParts(digest.body, boundary!)
      expect(parts.map((p) => p.body.trim())).toEqual(["Digest body", "<p>Digest <i>body</i></p>"])
    }))

  it.scoped("writes the Cc header and the files of a message, and no Bcc header", () =>
    Effect.gen(function*() {
      const directory = yield* tempDir
      const mailer = yield* Effect.map(Layer.build(OutboxMailer({ directory })), Context.get(Mailer))
      const pdf = Buffer.from("%PDF-1.7 not much of a document")
      yield* mailer.send({
        from: { email: "shop@example.com" },
        to: { email: "ana@example.org" },
        moreTo: [{ email: "bo@example.org" }],
        cc: [{ email: "cy@example.org", name: "Cy" }],
        bcc: [{ email: "audit@example.com" }],
        subject: "Invoice",
        html: "<p><img src=\"cid:logo\"> Invoice attached</p>",
        attachments: [
          { name: "logo.png", content: Buffer.from("png").toString("base64"), contentType: "image/png", contentId: "logo" },
          { name: "Fatura nº 7.pdf", content: pdf.toString("base64"), contentType: "application/pdf" }
        ]
      })
      const [file] = yield* Effect.promise(() => readdir(directory))
      const raw = yield* Effect.promise(() => readFile(join(directory, file!), "utf8"))
      const tree = parseMime(raw)
      expect(tree.headers.get("to")).toBe("ana@example.org, bo@example.org")
      expect(tree.headers.get("cc")).toBe("Cy <cy@example.org>")
      expect(raw).not.toMatch(/^bcc:/im)
      expect(shape(tree)).toEqual([
        "multipart/mixed",
        [["multipart/related", [["multipart/alternative", ["text/plain", "text/html"]], "image/png"]], "application/pdf"]
      ])
      expect(tree.parts[1]!.disposition?.params.get("filename")).toBe("Fatura nº 7.pdf")
      expect(tree.parts[1]!.body.equals(pdf)).toBe(true)
    }))
})
