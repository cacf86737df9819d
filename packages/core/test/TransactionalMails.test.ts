/**
 * Transactional mails as a library user embeds them: the TransactionalMails service over the in-memory store and
 * mailer, without HTTP. A send is stored and queued, TransactionalDelivery delivers it, render is a dry run.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  EmailListInput,
  EmailLists,
  MailerNames,
  MarkdownRenderer,
  MailSuppressed,
  Mailroom,
  SendTransactionalMailInput,
  SuppressionInput,
  Suppressions,
  TransactionalDelivery,
  TransactionalMails,
  TransactionalTemplateInput,
  TransactionalTemplates
} from "@mailroom/core"
import { MemoryMailbox, MemoryMailer, MemoryStorage } from "@mailroom/core/testing"
import { Effect, Layer, Option, Schema } from "effect"
import { noCsv } from "./noCsv.js"

const layer = Mailroom.pipe(Layer.provideMerge(MemoryMailer), Layer.provide(MemoryStorage), Layer.provide(noCsv))
const input = (body: Record<string, unknown>) => Schema.decodeUnknown(SendTransactionalMailInput)(body)

describe("TransactionalMails (embedded)", () => {
  it.effect("sends with a stored template: queued durably, delivered by TransactionalDelivery, logged as sent", () =>
    Effect.gen(function*() {
      const templates = yield* TransactionalTemplates
      const mails = yield* TransactionalMails
      const mailbox = yield* MemoryMailbox
      yield* templates.create(yield* Schema.decodeUnknown(TransactionalTemplateInput)({
        name: "Welcome", subject: "Welcome, {{ name }}", html: "<p>Hi {{ name }}</p>"
      }))
      const uuid = Option.getOrThrow(yield* mails.send(yield* input({ mail_name: "welcome", from: "app@example.com", to: "Ann <ann@example.com>", replacements: { name: "Ann" } })))
      expect((yield* mails.get(uuid)).status).toBe("pending")
      expect(yield* mailbox.sent).toEqual([])
      expect(yield* Effect.flatMap(TransactionalDelivery, (d) => d.drain())).toBe(1)
      const [mail] = yield* mailbox.sent
      expect(mail).toMatchObject({ subject: "Welcome, Ann", to: { email: "ann@example.com", name: "Ann" } })
      // templates track opens by default: the open pixel follows the body
      expect(mail!.html).toMatch(/^<p>Hi Ann<\/p><img src="[^"]+\/t\/o\/[^"]+"/)
      expect((yield* mails.get(uuid)).status).toBe("sent")
      expect((yield* templates.list({ page: 1, perPage: 10, sort: [], filters: {}, includes: [] })).items[0]!.statistics.sentCount).toBe(1)
    }).pipe(Effect.provide(layer)))

  it.effect("render is a dry run; a suppressed recipient fails with MailSuppressed and nothing is stored", () =>
    Effect.gen(function*() {
      const mails = yield* TransactionalMails
      const rendered = yield* mails.render(yield* input({ from: "a@example.com", to: "b@example.com", subject: "Hi {{ n }}", html: "<b>{{ n }}</b>", replacements: { n: "<x>" } }))
      expect(rendered).toEqual({ subject: "Hi <x>", html: "<b>&lt;x&gt;</b>", text: expect.stringContaining("<x>") })
      const suppression = yield* Schema.decodeUnknown(SuppressionInput)({ email: "gone@example.com", reason: "manual" })
      yield* Effect.flatMap(Suppressions, (s) => s.create(suppression))
      const refused = yield* Effect.flip(mails.send(yield* input({ from: "a@example.com", to: "b@example.com", cc: "GONE@example.com", subject: "x", html: "y" })))
      expect(refused).toBeInstanceOf(MailSuppressed)
      expect((refused as MailSuppressed).suppressed).toEqual(["gone@example.com"])
      expect((yield* mails.list({ page: 1, perPage: 10, sort: [], filters: {}, includes: [] })).total).toBe(0)
    }).pipe(Effect.provide(layer)))

  it.effect("settings given to the layer (mailer names, the Markdown renderer) hold for callers that do not carry them", () =>
    Effect.gen(function*() {
      const lists = yield* EmailLists
      const list = yield* lists.create(yield* Schema.decodeUnknown(EmailListInput)({ name: "News", default_from_email: "n@example.com", campaign_mailer: "ses" }))
      expect(list.campaignMailer).toBe("ses")
      expect(list.transactionalMailer).toBe("smtp")
      const mails = yield* TransactionalMails
      yield* Effect.flatMap(TransactionalTemplates, (t) =>
        Effect.flatMap(Schema.decodeUnknown(TransactionalTemplateInput)({ name: "Code", type: "markdown", subject: "Code", html: "Your code" }), t.create))
      const rendered = yield* mails.render(yield* input({ mail_name: "code", from: "a@example.com", to: "b@example.com", transactional_mailer: "ses" }))
      expect(rendered.html).toContain("<em>Your code</em>")
    }).pipe(Effect.provide(layer.pipe(
      Layer.provide(Layer.succeed(MailerNames, ["smtp", "ses"])),
      Layer.provide(Layer.succeed(MarkdownRenderer, (markdown: string) => `<em>${markdown}</em>`))
    ))))
})
