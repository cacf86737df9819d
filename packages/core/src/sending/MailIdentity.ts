import { Context } from "effect"

/** Where bounces go and how providers group their feedback: `BOUNCE_ADDRESS` and `FEEDBACK_ID`. */
export class MailIdentity extends Context.Reference<MailIdentity>()("@mailroom/MailIdentity", {
  defaultValue: () => ({
    /**
     * The envelope sender of every mail (SMTP MAIL FROM, the Return-Path); `{send}` in it is replaced with the send's
     * uuid (VERP: `bounces+{send}@example.com`). Null: the From address.
     */
    bounceAddress: null as string | null,
    /** Sender id of the `Feedback-ID` header (`<campaign>:<list>:mailroom:<id>`), for providers' feedback loops. */
    feedbackId: null as string | null
  })
}) {}

/** The envelope sender of a mail of `sendUuid` ("" for mails without a send: the `+{send}` part is dropped). */
export const envelopeSender = (bounceAddress: string | null, sendUuid: string): string | null => {
  if (bounceAddress === null) return null
  if (!bounceAddress.includes("{send}")) return bounceAddress
  return sendUuid === "" ? bounceAddress.replace(/[+.-]?\{send\}/, "") : bounceAddress.replace("{send}", sendUuid)
}
