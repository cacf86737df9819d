import { Effect, Option } from "effect"
import { ValidationError } from "../errors/ValidationError.js"
import type { TemplateRepository } from "../ports/TemplateRepository.js"
import { parseUuid } from "../usecases/lookup.js"
import { mailContentHtml } from "../usecases/mailContentHtml.js"
import type { AutomationMailInput } from "./AutomationMailInput.js"
import type { AutomationMailChanges } from "./AutomationMailRepository.js"

/**
 * The stored fields of an automation mail from its body (a full replace: absent fields take their defaults): the html
 * given, else its template filled with `fields` like a campaign's; an html or subject that is not a valid template,
 * or an unknown template, is a 422.
 */
export const automationMailChanges = (
  input: AutomationMailInput,
  templates: TemplateRepository["Type"],
  markdown: (text: string) => string,
  at: Date
) =>
  Effect.gen(function*() {
    const templateRef = input.templateUuid === undefined ? Option.none() : parseUuid(input.templateUuid.trim())
    const template = Option.isNone(templateRef) ? Option.none() : yield* templates.findByUuid(templateRef.value as never)
    if (input.templateUuid !== undefined && input.templateUuid.trim() !== "" && Option.isNone(template)) {
      return yield* ValidationError.field("template_uuid", "The selected template uuid is invalid.")
    }
    const { fields, html } = yield* mailContentHtml(input, template, markdown)
    const changes: AutomationMailChanges = {
      name: input.name.trim(),
      subject: input.subject ?? null,
      fromEmail: input.fromEmail?.trim() ?? null,
      fromName: input.fromName ?? null,
      replyToEmail: input.replyToEmail?.trim() ?? null,
      replyToName: null,
      html,
      templateId: Option.match(template, { onNone: () => null, onSome: (t) => t.id }),
      fields,
      emailHtml: null,
      webviewHtml: null,
      utmTags: input.utmTags ?? false,
      addSubscriberTags: input.addSubscriberTags ?? false,
      addSubscriberLinkTags: input.addSubscriberLinkTags ?? false,
      trackOpens: input.trackOpens ?? true,
      trackClicks: input.trackClicks ?? true,
      updatedAt: at
    }
    return changes
  })
