import { Effect, Either, Option } from "effect"
import { normalizeEmail } from "../domain/Email.js"
import { newUuid, type SendUuid } from "../domain/Ids.js"
import { ValidationError } from "../errors/ValidationError.js"
import { SuppressionRepository } from "../ports/SuppressionRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { orNotFound, parseUuid } from "../usecases/lookup.js"
import { MailerNames } from "../usecases/MailerNames.js"
import { MarkdownRenderer } from "../usecases/MarkdownRenderer.js"
import { now } from "../usecases/now.js"
import { recipientEmails } from "./MailAddressList.js"
import { MailSuppressed } from "./MailSuppressed.js"
import { type PreparedMail, prepareMail } from "./preparedMail.js"
import type { SendTransactionalMailInput } from "./SendTransactionalMailInput.js"
import type { TransactionalMailQuery } from "./TransactionalCollections.js"
import {
  compileContent,
  type CompiledContent,
  ContentError,
  type RenderedContent,
  textOf,
  type TransactionalSource
} from "./transactionalContent.js"
import type { TransactionalMailUuid, TransactionalTemplateUuid } from "./TransactionalIds.js"
import type { TransactionalMail } from "./TransactionalMail.js"
import { TransactionalMailRepository } from "./TransactionalMailRepository.js"
import type { TransactionalTemplate } from "./TransactionalTemplate.js"
import { TransactionalTemplateRepository } from "./TransactionalTemplateRepository.js"
import { TransactionalWakeup } from "./TransactionalWakeup.js"

/** A checked send: its addresses and files, its content rendered, and the template it came from. */
interface CheckedSend {
  readonly prepared: PreparedMail
  readonly content: RenderedContent
  readonly template: TransactionalTemplate | null
}

/** Most compiled templates kept (by template id and version). */
const COMPILED_CACHE = 200

/**
 * Transactional mails: send (queued durably with its first send in one transaction, delivered by
 * TransactionalDelivery), a dry-run render, resend, and the log.
 */
export class TransactionalMails extends Effect.Service<TransactionalMails>()("@mailroom/TransactionalMails", {
  effect: Effect.gen(function*() {
    const templates = yield* TransactionalTemplateRepository
    const mails = yield* TransactionalMailRepository
    const suppressions = yield* SuppressionRepository
    const markdown = yield* MarkdownRenderer
    const mailers = yield* MailerNames
    const { withTransaction } = yield* Transactor
    const wakeup = yield* TransactionalWakeup
    const compiled = new Map<string, { readonly source: TransactionalSource; readonly content: CompiledContent }>()

    /** The template a `mail_name` names (its uuid or its name, ignoring case). */
    const named = (name: string) =>
      Effect.gen(function*() {
        const uuid = parseUuid(name.trim())
        const byUuid = Option.isSome(uuid) ? yield* templates.findByUuid(uuid.value as TransactionalTemplateUuid) : Option.none()
        return Option.isSome(byUuid) ? byUuid : yield* templates.findByName(name.trim())
      })

    /** A template's source compiled once (kept while its subject, body and text stay the same); inline content each time. */
    const compile = (input: SendTransactionalMailInput, template: TransactionalTemplate | null, markdown: (s: string) => string) => {
      const subject = input.subject?.trim() ? input.subject : null
      if (template === null) {
        return compileContent({ subject: subject ?? "", body: input.html ?? "", text: input.text ?? null, markdown: false }, markdown)
      }
      const source = { subject: subject ?? template.subject, body: template.html, text: template.text, markdown: template.type === "markdown" }
      const key = `${template.id}:${subject === null ? "" : "override:"}${subject ?? ""}`
      const known = compiled.get(key)
      if (known !== undefined && known.source.body === source.body && known.source.subject === source.subject &&
        known.source.text === source.text && known.source.markdown === source.markdown) return known.content
      const content = compileContent(source, markdown)
      if (compiled.size >= COMPILED_CACHE) compiled.delete(compiled.keys().next().value!)
      compiled.set(key, { source, content })
      return content
    }

    /** Checks a send or render request and renders its content; every problem at once as a ValidationError. */
    const check = (input: SendTransactionalMailInput) =>
      Effect.gen(function*() {
        const errors: Record<string, Array<string>> = {}
        const name = input.mailName?.trim() ? input.mailName : null
        const template = name === null ? null : Option.getOrNull(yield* named(name))
        if (name !== null && template === null) errors["mail_name"] = ["The selected mail name is invalid: no template has this name or uuid."]
        if (name === null) {
          if (!input.subject?.trim()) errors["subject"] = ["The subject field is required when mail name is not present."]
          if (!input.html?.trim() && !input.text?.trim()) {
            errors["html"] = ["The html field is required when neither mail name nor text is present."]
          }
        }
        const prepared = prepareMail(input, template, mailers)
        if (Either.isLeft(prepared)) Object.assign(errors, prepared.left)
        let content: RenderedContent | null = null
        if (Object.keys(errors).length === 0) {
          try {
            content = compile(input, template, markdown)(input.replacements ?? {})
          } catch (error) {
            if (!(error instanceof ContentError)) throw error
            errors[error.field] = [error.message]
          }
        }
        if (Object.keys(errors).length > 0) return yield* Effect.fail(ValidationError.fromErrors(errors))
        return { prepared: Either.getOrThrow(prepared), content: content!, template } satisfies CheckedSend
      })

    /** Fails with every suppressed address among the mail's recipients. */
    const notSuppressed = (mail: Pick<PreparedMail, "to" | "cc" | "bcc">) =>
      Effect.gen(function*() {
        const emails = recipientEmails(mail)
        const suppressed = yield* suppressions.suppressedAmong(emails)
        if (suppressed.size > 0) return yield* Effect.fail(MailSuppressed.of(emails.filter((email) => suppressed.has(email))))
      })

    /** Queues a send of the stored mail to its recipients (the Send is to its first To address). */
    const queueSend = (mail: TransactionalMail, at: Date) =>
      mails.addSend({ uuid: newUuid() as SendUuid, mailId: mail.id, email: normalizeEmail(mail.to[0]!.email), at })

    /**
     * Sends a transactional mail: checked (422 by field), refused when a recipient is suppressed (unless fake), then
     * written with its send in one transaction before this returns, and delivered by the workers. The log item's
     * uuid, or none with `store: false`.
     */
    const send = Effect.fn("TransactionalMails.send")(function*(input: SendTransactionalMailInput) {
      const { content, prepared, template } = yield* check(input)
      const fake = input.fake ?? false
      if (!fake) yield* notSuppressed(prepared)
      const stored = input.store ?? template?.storeMail ?? true
      if (fake && !stored) return Option.none<TransactionalMailUuid>()
      const at = yield* now
      const mail = yield* withTransaction(Effect.gen(function*() {
        const mail = yield* mails.insert({
          uuid: newUuid() as TransactionalMailUuid,
          templateId: template?.id ?? null,
          mailName: template?.name ?? null,
          subject: content.subject,
          from: prepared.from,
          to: prepared.to,
          cc: prepared.cc,
          bcc: prepared.bcc,
          replyTo: prepared.replyTo,
          html: content.html,
          text: content.text,
          attachments: prepared.attachments,
          fake,
          stored,
          mailer: prepared.mailer,
          // a mail not stored is deleted once delivered: nothing would be left to count its opens and clicks on
          trackOpens: stored && (input.trackOpens ?? template?.trackOpens ?? false),
          trackClicks: stored && (input.trackClicks ?? template?.trackClicks ?? false),
          createdAt: at,
          updatedAt: at
        })
        if (!fake) yield* queueSend(mail, at)
        return mail
      }))
      if (!fake) yield* wakeup.notify
      return stored ? Option.some(mail.uuid) : Option.none()
    })

    /** What `send` would send (subject, html, text), without sending or storing anything. */
    const render = Effect.fn("TransactionalMails.render")(function*(input: SendTransactionalMailInput) {
      const { content } = yield* check(input)
      return { subject: content.subject, html: content.html, text: textOf(content) }
    })

    const find = (ref: string) =>
      Option.match(parseUuid(ref), {
        onNone: () => Effect.succeedNone,
        onSome: (uuid) => mails.findByUuid(uuid as TransactionalMailUuid)
      }).pipe(orNotFound("Transactional mail"))

    /** Sends a logged mail again to its recipients (suppressions checked again); a fake mail stays unsent. */
    const resend = Effect.fn("TransactionalMails.resend")(function*(ref: string) {
      const { mail } = yield* find(ref)
      if (mail.fake) return
      yield* notSuppressed(mail)
      const at = yield* now
      yield* withTransaction(queueSend(mail, at))
      yield* wakeup.notify
    })

    const get = Effect.fn("TransactionalMails.get")(function*(ref: string) {
      return yield* find(ref)
    })

    const list = Effect.fn("TransactionalMails.list")(function*(query: TransactionalMailQuery) {
      return yield* mails.list(query)
    })

    return { send, render, resend, get, list } as const
  })
}) {}
