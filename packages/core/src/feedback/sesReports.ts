import { Either } from "effect"
import { MalformedFeedback } from "./MalformedFeedback.js"
import { addressOf, arrayAt, asObject, isObject, type JsonObject, objectAt, stringAt } from "./payloadFields.js"
import type { ParsedFeedback, ProviderReport } from "./ProviderReport.js"
import { sendUuidIn } from "./sendUuidIn.js"

/** The value of a header in SES's `mail.headers` list (`[{name, value}]`), by case-insensitive name. */
const header = (mail: JsonObject | undefined, name: string): string | null => {
  for (const item of arrayAt(mail, "headers")) {
    if (isObject(item) && typeof item["name"] === "string" && item["name"].toLowerCase() === name) return stringAt(item, "value")
  }
  return null
}

/** The mail's own Message-ID when SES reports the headers, else SES's message id. */
const messageIdOf = (mail: JsonObject | undefined): string | null =>
  header(mail, "message-id") ?? stringAt(objectAt(mail, "commonHeaders"), "messageId") ?? stringAt(mail, "messageId")

/** One report per listed recipient of the mail, skipping entries without an address. */
const recipients = (
  list: ReadonlyArray<unknown>,
  type: ProviderReport["type"],
  mail: JsonObject | undefined
): ParsedFeedback => {
  const sendUuid = sendUuidIn(arrayAt(mail, "headers"))
  const messageId = messageIdOf(mail)
  const reports: Array<ProviderReport> = []
  let ignored = 0
  for (const item of list) {
    const email = isObject(item) ? addressOf(stringAt(item, "emailAddress")) : null
    if (email === null) ignored++
    else reports.push({ type, email, sendUuid, messageId })
  }
  return { reports, ignored }
}

/**
 * The reports of an SES notification (the `Message` of an SNS notification, parsed): a Bounce gives one report per
 * bounced recipient (`Permanent` → bounce; `Transient` and `Undetermined` → soft_bounce), a Complaint one complaint per
 * complained recipient (but `not-spam` feedback); Delivery and other events are ignored.
 * Works for both notification (`notificationType`) and event publishing (`eventType`) payloads.
 */
export const sesReports = (json: unknown): Either.Either<ParsedFeedback, MalformedFeedback> =>
  Either.flatMap(asObject(json, "The SES notification"), (notification) => {
    const kind = stringAt(notification, "notificationType") ?? stringAt(notification, "eventType")
    if (kind === null) return Either.left(MalformedFeedback.of("The SES notification has no notificationType or eventType."))
    const mail = objectAt(notification, "mail")
    if (kind === "Bounce") {
      const bounce = objectAt(notification, "bounce")
      if (bounce === undefined) return Either.left(MalformedFeedback.of("The SES bounce notification has no bounce."))
      const type = stringAt(bounce, "bounceType") === "Permanent" ? "bounce" : "soft_bounce"
      return Either.right(recipients(arrayAt(bounce, "bouncedRecipients"), type, mail))
    }
    if (kind === "Complaint") {
      const complaint = objectAt(notification, "complaint")
      if (complaint === undefined) return Either.left(MalformedFeedback.of("The SES complaint notification has no complaint."))
      const list = arrayAt(complaint, "complainedRecipients")
      if (stringAt(complaint, "complaintFeedbackType") === "not-spam") return Either.right({ reports: [], ignored: list.length })
      return Either.right(recipients(list, "complaint", mail))
    }
    return Either.right({ reports: [], ignored: 1 })
  })
