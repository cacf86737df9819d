import { Effect, Option } from "effect"
import { fillTemplate } from "../domain/CampaignContent.js"
import { ValidationError } from "../errors/ValidationError.js"
import { templateProblem } from "../sending/TemplateEngine.js"

/** The content part of a campaign-shaped mail's body (a campaign, an automation mail). */
export interface MailContentInput {
  readonly subject?: string | null | undefined
  readonly html?: string | null | undefined
  readonly fields?: Readonly<Record<string, string>> | null | undefined
}

/**
 * A campaign-shaped mail's html and fields from its body: the html given, else its template filled with `fields`
 * (markdown fields converted); an html or subject that is not a valid template is a 422 (it would only make broken mails).
 */
export const mailContentHtml = (
  input: MailContentInput,
  template: Option.Option<{ readonly html: string }>,
  markdown: (text: string) => string
): Effect.Effect<{ readonly html: string | null; readonly fields: Readonly<Record<string, string>> }, ValidationError> => {
  const fields = input.fields ?? {}
  const html = input.html ?? Option.match(template, { onNone: () => null, onSome: (t) => fillTemplate(t.html, fields, markdown) })
  const htmlProblem = html === null ? null : templateProblem(html)
  const subjectProblem = input.subject === undefined || input.subject === null ? null : templateProblem(input.subject)
  if (htmlProblem === null && subjectProblem === null) return Effect.succeed({ html, fields })
  return Effect.fail(ValidationError.fromErrors({
    ...(htmlProblem === null ? {} : { html: [htmlProblem] }),
    ...(subjectProblem === null ? {} : { subject: [subjectProblem] })
  }))
}
