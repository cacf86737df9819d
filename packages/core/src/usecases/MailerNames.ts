import { Context } from "effect"

/** The mailer names a list may choose; the first is the default. Provide it to configure more than one. */
export class MailerNames extends Context.Reference<MailerNames>()("@mailroom/MailerNames", {
  defaultValue: (): ReadonlyArray<string> => ["default"]
}) {}
