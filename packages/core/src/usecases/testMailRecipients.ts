import { Effect } from "effect"
import { splitRecipients } from "../domain/CampaignContent.js"
import { isEmail, normalizeEmail } from "../domain/Email.js"
import { ValidationError } from "../errors/ValidationError.js"

/** The addresses of a test mail request: 1-10 distinct valid addresses separated by commas, else a 422 on `email`. */
export const testMailRecipients = (emailText: string): Effect.Effect<ReadonlyArray<string>, ValidationError> => {
  const emails = splitRecipients(emailText)
  const problem = emails.length === 0
    ? "The email field is required."
    : emails.length > 10
    ? "You can only specify 10 items"
    : !emails.every(isEmail)
    ? "The email field must contain valid email addresses, separated by commas."
    : new Set(emails.map(normalizeEmail)).size < emails.length
    ? "You may not specify duplicates."
    : undefined
  return problem === undefined ? Effect.succeed(emails) : Effect.fail(ValidationError.field("email", problem))
}
