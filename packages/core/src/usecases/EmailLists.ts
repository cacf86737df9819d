import { Effect } from "effect"
import type { EmailListQuery } from "../domain/Collections.js"
import type { EmailListSettings } from "../domain/EmailList.js"
import type { EmailListInput } from "../domain/EmailListInput.js"
import { type EmailListUuid, newUuid } from "../domain/Ids.js"
import { ValidationError } from "../errors/ValidationError.js"
import { tagKey } from "../domain/Tag.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { TagRepository } from "../ports/TagRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { findByRef, orNotFound } from "./lookup.js"
import { MailerNames } from "./MailerNames.js"
import { now } from "./now.js"
import { RecentLists } from "./RecentLists.js"

const mailerFields = [
  ["campaignMailer", "campaign_mailer"],
  ["automationMailer", "automation_mailer"],
  ["transactionalMailer", "transactional_mailer"]
] as const

/** Turns a list body into settings, applying defaults and the rules that span several fields. */
const toSettings = (input: EmailListInput, mailers: ReadonlyArray<string>, tagNames: ReadonlySet<string> = new Set()) => {
  const errors: Record<string, Array<string>> = {}
  const reports = Boolean(input.reportCampaignSent || input.reportCampaignSummary || input.reportEmailListSummary)
  const recipients = input.reportRecipients?.trim() || null
  if (reports && recipients === null) {
    errors["report_recipients"] = ["The report recipients field is required when a report is enabled."]
  }
  for (const [field, key] of mailerFields) {
    const value = input[field]
    if (value != null && !mailers.includes(value)) {
      errors[key] = [`The selected ${key.replace(/_/g, " ")} is invalid. Configured mailers: ${mailers.join(", ")}.`]
    }
  }
  ;(input.allowedFormSubscriptionTags ?? []).forEach((name, index) => {
    if (tagNames.has(tagKey(name))) return
    errors[`allowed_form_subscription_tags.${index}`] = [
      `The selected allowed_form_subscription_tags.${index} is invalid.`
    ]
  })
  if (Object.keys(errors).length > 0) return Effect.fail(ValidationError.fromErrors(errors))
  const fromEmail = input.defaultFromEmail.trim()
  const fromName = input.defaultFromName ?? null
  const settings: EmailListSettings = {
    name: input.name.trim(),
    defaultFromEmail: fromEmail,
    defaultFromName: fromName,
    defaultReplyToEmail: (input.defaultReplyToEmail ?? input.defaultReplyEmail)?.trim() || fromEmail,
    defaultReplyToName: input.defaultReplyToName ?? input.defaultReplyName ?? fromName,
    campaignsFeedEnabled: input.campaignsFeedEnabled ?? false,
    allowFormSubscriptions: input.allowFormSubscriptions ?? false,
    requiresConfirmation: input.requiresConfirmation ?? false,
    reportCampaignSent: input.reportCampaignSent ?? false,
    reportCampaignSummary: input.reportCampaignSummary ?? false,
    reportEmailListSummary: input.reportEmailListSummary ?? false,
    reportRecipients: recipients,
    campaignMailer: input.campaignMailer ?? mailers[0] ?? null,
    automationMailer: input.automationMailer ?? mailers[0] ?? null,
    transactionalMailer: input.transactionalMailer ?? mailers[0] ?? null,
    redirectAfterSubscribed: input.redirectAfterSubscribed ?? null,
    redirectAfterAlreadySubscribed: input.redirectAfterAlreadySubscribed ?? null,
    redirectAfterSubscriptionPending: input.redirectAfterSubscriptionPending ?? null,
    redirectAfterUnsubscribed: input.redirectAfterUnsubscribed ?? null,
    honeypotField: input.honeypotField ?? null,
    confirmationMailableClass: null
  }
  return Effect.succeed(settings)
}

/** Email lists: audiences with sender defaults, addressed by uuid (or integer id). */
export class EmailLists extends Effect.Service<EmailLists>()("@mailroom/EmailLists", {
  effect: Effect.gen(function*() {
    const repo = yield* EmailListRepository
    const tags = yield* TagRepository
    const mailers = yield* MailerNames
    const { withTransaction } = yield* Transactor
    const { changing } = yield* RecentLists

    const find = (ref: string) => findByRef("Email list", ref, repo.findByUuid, repo.findById)

    const list = Effect.fn("EmailLists.list")(function*(query: EmailListQuery) {
      return yield* repo.list(query)
    })

    const get = Effect.fn("EmailLists.get")(function*(ref: string) {
      return yield* find(ref)
    })

    const create = Effect.fn("EmailLists.create")(function*(input: EmailListInput) {
      const settings = yield* toSettings(input, mailers)
      const at = yield* now
      return yield* repo.insert({
        ...settings,
        uuid: newUuid() as EmailListUuid,
        activeSubscribersCount: 0,
        emailListSummarySentAt: null,
        createdAt: at,
        updatedAt: at
      })
    })

    const update = Effect.fn("EmailLists.update")(function*(ref: string, input: EmailListInput) {
      const list = yield* find(ref)
      const known = yield* tags.findByRefs(list.id, input.allowedFormSubscriptionTags ?? [])
      const settings = yield* toSettings(input, mailers, new Set(known.map((tag) => tagKey(tag.name))))
      const at = yield* now
      return yield* changing(withTransaction(repo.update(list.id, { ...settings, updatedAt: at }).pipe(orNotFound("Email list"))))
    })

    const remove = Effect.fn("EmailLists.remove")(function*(ref: string) {
      const list = yield* find(ref)
      yield* changing(withTransaction(repo.delete(list.id)))
    })

    return { list, get, create, update, remove } as const
  })
}) {}
