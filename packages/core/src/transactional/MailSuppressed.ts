import { Schema } from "effect"

/** A transactional mail names suppressed addresses (all of them in `suppressed`); nothing was sent. */
export class MailSuppressed extends Schema.TaggedError<MailSuppressed>()("MailSuppressed", {
  message: Schema.String,
  suppressed: Schema.Array(Schema.String)
}) {
  /** The error naming every suppressed address. */
  static of(addresses: ReadonlyArray<string>): MailSuppressed {
    return new MailSuppressed({
      message: addresses.length === 1
        ? `The address ${addresses[0]} is on the suppression list; the mail was not sent.`
        : `The addresses ${addresses.join(", ")} are on the suppression list; the mail was not sent.`,
      suppressed: [...addresses]
    })
  }
}
