import type { FeedbackChecks } from "@mailroom/core"
import { Effect, Option, Redacted } from "effect"
import { CliError } from "../CliError.js"
import type { FeedbackSettings } from "./FeedbackSettings.js"
import { mailgunCheck } from "./mailgunCheck.js"
import { postmarkCheck } from "./postmarkCheck.js"
import { sendgridCheck, sendgridPublicKey } from "./sendgridCheck.js"
import { fetchedSnsCertificates, pinnedSnsCertificates } from "./snsCertificates.js"
import { snsGate } from "./snsGate.js"

const secret = (value: Option.Option<Redacted.Redacted>) => Option.getOrNull(Option.map(value, Redacted.value))

/**
 * The checks of each configured provider's webhooks (FeedbackGate); a CliError naming the variable when a setting is
 * unusable (a certificate path without certificates, a SendGrid key that is not a public key).
 */
export const feedbackChecks = (settings: FeedbackSettings): Effect.Effect<FeedbackChecks, CliError> =>
  Effect.gen(function*() {
    const fail = (name: string) => (error: unknown) => new CliError({ message: `${name}: ${(error as Error).message}` })
    const sesOn = settings.sesEnabled || settings.sesTopicArns !== null
    const certificates = settings.sesCertificates === null
      ? fetchedSnsCertificates()
      : yield* Effect.try({ try: () => pinnedSnsCertificates(settings.sesCertificates!), catch: fail("SES_SNS_CERTIFICATES") })
    const sendgridKey = settings.sendgridPublicKey === null
      ? null
      : yield* Effect.try({ try: () => sendgridPublicKey(settings.sendgridPublicKey!), catch: fail("SENDGRID_WEBHOOK_PUBLIC_KEY") })
    const mailgunKey = secret(settings.mailgunSigningKey)
    return {
      ses: sesOn ? snsGate({ topicArns: settings.sesTopicArns, certificates, subscribeOrigin: settings.sesSubscribeOrigin }) : null,
      postmark: postmarkCheck({
        user: settings.postmarkUser,
        password: secret(settings.postmarkPassword),
        secret: secret(settings.postmarkSecret)
      }),
      mailgun: mailgunKey === null ? null : mailgunCheck(mailgunKey),
      sendgrid: sendgridKey === null ? null : sendgridCheck(sendgridKey)
    }
  })
