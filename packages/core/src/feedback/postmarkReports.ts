import { Either } from "effect"
import type { BounceType } from "../domain/Feedback.js"
import { MalformedFeedback } from "./MalformedFeedback.js"
import { addressOf, asObject, objectAt, stringAt } from "./payloadFields.js"
import type { ParsedFeedback } from "./ProviderReport.js"
import { sendUuidIn, sendUuidInRaw } from "./sendUuidIn.js"

/**
 * Postmark's bounce types as feedback: the address does not exist or was deactivated → bounce; a temporary or
 * policy failure (full mailbox, DNS, blocked, DMARC, unclassified) → soft_bounce; a spam complaint → complaint.
 * Auto-replies, challenge mails, (un)subscribe requests, address changes and Postmark's own API or template errors are
 * not about the address and are ignored.
 */
const BOUNCE_TYPES: Readonly<Record<string, BounceType>> = {
  HardBounce: "bounce",
  BadEmailAddress: "bounce",
  ManuallyDeactivated: "bounce",
  SoftBounce: "soft_bounce",
  Transient: "soft_bounce",
  DnsError: "soft_bounce",
  Blocked: "soft_bounce",
  DMARCPolicy: "soft_bounce",
  Unknown: "soft_bounce",
  SpamComplaint: "complaint"
}

/**
 * The report of a Postmark webhook: RecordType `Bounce` by its Type (see BOUNCE_TYPES), `SpamComplaint` → complaint;
 * other record types (Delivery, Open, Click, SubscriptionChange) are ignored. The send comes from the Metadata
 * (`X-Mailroom-Send` or `mailroom_send`) or a copy of the mail's headers in Content; MessageID is Postmark's.
 */
export const postmarkReports = (json: unknown): Either.Either<ParsedFeedback, MalformedFeedback> =>
  Either.flatMap(asObject(json, "The Postmark webhook body"), (record) => {
    const recordType = stringAt(record, "RecordType")
    if (recordType === null) return Either.left(MalformedFeedback.of("The Postmark webhook body has no RecordType."))
    const type = recordType === "SpamComplaint" ? "complaint"
      : recordType === "Bounce" ? BOUNCE_TYPES[stringAt(record, "Type") ?? ""]
      : undefined
    if (type === undefined) return Either.right({ reports: [], ignored: 1 })
    const email = addressOf(stringAt(record, "Email"))
    if (email === null) return Either.left(MalformedFeedback.of(`The Postmark ${recordType} has no Email.`))
    const sendUuid = sendUuidIn(objectAt(record, "Metadata")) ?? sendUuidIn(record["Headers"]) ??
      sendUuidInRaw(stringAt(record, "Content"))
    return Either.right({ reports: [{ type, email, sendUuid, messageId: stringAt(record, "MessageID") }], ignored: 0 })
  })
