import { walkActions } from "./actionTree.js"
import { AutomationMailInUse } from "./AutomationMailInUse.js"
import { AutomationRepository } from "./AutomationRepository.js"
import { Effect, Option } from "effect"
import type { BounceQuery, ClickQuery, OpenQuery, UnsubscribeQuery } from "../domain/Collections.js"
import { newUuid } from "../domain/Ids.js"
import { zeroMailCounters } from "../domain/zeroMailCounters.js"
import { JobQueue } from "../ports/JobQueue.js"
import { TemplateRepository } from "../ports/TemplateRepository.js"
import { findByRef, orNotFound } from "../usecases/lookup.js"
import { MarkdownRenderer } from "../usecases/MarkdownRenderer.js"
import { now } from "../usecases/now.js"
import { testMailRecipients } from "../usecases/testMailRecipients.js"
import type { AutomationMailUuid } from "./AutomationIds.js"
import type { AutomationMail, ListedAutomationMail } from "./AutomationMail.js"
import { automationMailChanges } from "./automationMailChanges.js"
import type { AutomationMailQuery } from "./AutomationMailCollections.js"
import type { AutomationMailInput } from "./AutomationMailInput.js"
import { AutomationMailRepository } from "./AutomationMailRepository.js"

/** The job kind of an automation mail's test mails. */
export const AUTOMATION_MAIL_TEST_MAIL = "automation-mail-test-mail"

/** Automation mails: CRUD by uuid (or integer id), test mails, and their opens, clicks, unsubscribes and bounces. */
export class AutomationMails extends Effect.Service<AutomationMails>()("@mailroom/AutomationMails", {
  effect: Effect.gen(function*() {
    const repo = yield* AutomationMailRepository
    const automations = yield* AutomationRepository
    const templates = yield* TemplateRepository
    const markdown = yield* MarkdownRenderer
    const jobs = yield* JobQueue

    const find = (ref: string) => findByRef("Automation mail", ref, repo.findByUuid, repo.findById)
    const view = (mail: AutomationMail) =>
      Effect.map(
        mail.templateId === null ? Effect.succeedNone : templates.findById(mail.templateId),
        (template): ListedAutomationMail => ({ mail, templateUuid: Option.getOrNull(Option.map(template, (t) => t.uuid)) })
      )

    const list = Effect.fn("AutomationMails.list")(function*(query: AutomationMailQuery) {
      const page = yield* repo.list(query)
      return { total: page.total, items: yield* Effect.forEach(page.items, view) }
    })

    const get = Effect.fn("AutomationMails.get")(function*(ref: string) {
      return yield* view(yield* find(ref))
    })

    const create = Effect.fn("AutomationMails.create")(function*(input: AutomationMailInput) {
      const at = yield* now
      const changes = yield* automationMailChanges(input, templates, markdown, at)
      const mail = yield* repo.insert({
        ...changes,
        uuid: newUuid() as AutomationMailUuid,
        ...zeroMailCounters,
        createdAt: at
      })
      return yield* view(mail)
    })

    /** Replaces the mail's content; mails queued since go out with the new content. */
    const update = Effect.fn("AutomationMails.update")(function*(ref: string, input: AutomationMailInput) {
      const existing = yield* find(ref)
      const changes = yield* automationMailChanges(input, templates, markdown, yield* now)
      return yield* view(yield* repo.update(existing.id, changes).pipe(orNotFound("Automation mail")))
    })

    /** Deletes the mail with its links and statistics; its pending sends fail when their turn comes. */
    /** Deletes the mail; 409 while a started automation has an action sending it. */
    const remove = Effect.fn("AutomationMails.remove")(function*(ref: string) {
      const mail = yield* find(ref)
      const users = (yield* automations.started).filter((automation) => {
        let sends = false
        walkActions(automation.actions, (action) => {
          if (action.type === "send_mail" && action.automation_mail_uuid === mail.uuid) sends = true
        })
        return sends
      })
      if (users.length > 0) {
        return yield* new AutomationMailInUse({
          message: `The automation mail is sent by the started automation ${users.map((a) => `"${a.name}"`).join(", ")}: pause it or change its actions first.`
        })
      }
      yield* repo.delete(mail.id)
    })

    /** Queues test mails to 1-10 distinct addresses. */
    const sendTest = Effect.fn("AutomationMails.sendTest")(function*(ref: string, emailText: string) {
      const mail = yield* find(ref)
      const emails = yield* testMailRecipients(emailText)
      yield* jobs.enqueue({ kind: AUTOMATION_MAIL_TEST_MAIL, payload: { automationMailId: mail.id, emails }, runAt: yield* now })
    })

    const opens = Effect.fn("AutomationMails.opens")(function*(ref: string, query: OpenQuery) {
      const mail = yield* find(ref)
      return { mail, page: yield* repo.opens(mail.id, query) }
    })
    const clicks = Effect.fn("AutomationMails.clicks")(function*(ref: string, query: ClickQuery) {
      const mail = yield* find(ref)
      return { mail, page: yield* repo.clicks(mail.id, query) }
    })
    const unsubscribes = Effect.fn("AutomationMails.unsubscribes")(function*(ref: string, query: UnsubscribeQuery) {
      const mail = yield* find(ref)
      return { mail, page: yield* repo.unsubscribes(mail.id, query) }
    })
    const bounces = Effect.fn("AutomationMails.bounces")(function*(ref: string, query: BounceQuery) {
      const mail = yield* find(ref)
      return { mail, page: yield* repo.bounces(mail.id, query) }
    })

    return { list, get, create, update, remove, sendTest, opens, clicks, unsubscribes, bounces, find } as const
  })
}) {}
