import { Effect, Option } from "effect"
import { fillTemplate } from "../domain/CampaignContent.js"
import { ValidationError } from "../errors/ValidationError.js"
import type { TemplateRepository } from "../ports/TemplateRepository.js"
import { templateProblem } from "../sending/TemplateEngine.js"
import { parseUuid } from "../usecases/lookup.js"
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
    const fields = input.fields ?? {}
    const html = input.html ?? Option.match(template, { onNone: () => null, onSome: (t) => fillTemplate(t.html, fields, markdown) })
    // a mail whose html or subject is not valid Liquid would only make broken mails
    const htmlProblem = html === null ? null : templateProblem(html)
    const subjectProblem = input.subject === undefined || input.subject === null ? null : templateProblem(input.subject)
    if (htmlProblem !== null || subjectProblem !== null) {
      return yield* ValidationError.fromErrors({
        ...(htmlProblem === null ? {} : { html: [htmlProblem] }),
        ...(subjectProblem === null ? {} : { subject: [subjectProblem] })
      })
    }
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
