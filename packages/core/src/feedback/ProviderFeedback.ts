import { Effect, Either } from "effect"
import { isEmail } from "../domain/Email.js"
import { NotFound } from "../errors/NotFound.js"
import { Unauthenticated } from "../errors/Unauthenticated.js"
import { FeedbackGate, type FeedbackRequest } from "./FeedbackGate.js"
import { FeedbackIntake } from "./FeedbackIntake.js"
import { mailgunReports, mailgunSignature } from "./mailgunReports.js"
import { parseJson } from "./payloadFields.js"
import { postmarkReports } from "./postmarkReports.js"
import type { FeedbackProvider, ParsedFeedback } from "./ProviderReport.js"
import { sendgridReports } from "./sendgridReports.js"
import { sesReports } from "./sesReports.js"
import { decodeSnsMessage } from "./snsMessage.js"

/** What a provider's webhook did: reports applied, events that were not feedback, and a confirmed SNS subscription. */
export interface FeedbackReceipt {
  readonly recorded: number
  readonly ignored: number
  readonly confirmed: boolean
}

const notConfigured = (provider: FeedbackProvider) =>
  new NotFound({ message: `Feedback from ${provider} is not configured on this server.` })

const unsigned = new Unauthenticated({ message: "The webhook signature is missing or not valid." })

/**
 * Bounces and complaints from email providers' webhooks (Amazon SES over SNS, Postmark, Mailgun, SendGrid): the request
 * is authenticated the provider's way (FeedbackGate), its payload parsed into reports, and each report applied
 * through FeedbackIntake like the generic feedback endpoint's.
 */
export class ProviderFeedback extends Effect.Service<ProviderFeedback>()("@mailroom/ProviderFeedback", {
  effect: Effect.gen(function*() {
    const gate = yield* FeedbackGate
    const intake = yield* FeedbackIntake

    /** Applies the reports whose address is valid; the others count as ignored. */
    const apply = (parsed: ParsedFeedback) => {
      const valid = parsed.reports.filter((report) => isEmail(report.email.trim()))
      return Effect.as(Effect.forEach(valid, intake.record, { discard: true }), {
        recorded: valid.length,
        ignored: parsed.ignored + parsed.reports.length - valid.length,
        confirmed: false
      })
    }

    /** An SNS delivery: verified, then a subscription confirmed or an SES notification applied. */
    const ses = (request: FeedbackRequest) =>
      Effect.gen(function*() {
        if (gate.ses === null) return yield* notConfigured("ses")
        const message = yield* Either.flatMap(parseJson(request.text), decodeSnsMessage)
        yield* gate.ses.verify(message)
        if (message.Type === "SubscriptionConfirmation") {
          yield* gate.ses.confirm(message.SubscribeURL ?? "")
          return { recorded: 0, ignored: 0, confirmed: true }
        }
        if (message.Type === "UnsubscribeConfirmation") return { recorded: 0, ignored: 1, confirmed: false }
        return yield* apply(yield* Either.flatMap(parseJson(message.Message, "The SNS Message"), sesReports))
      })

    /** A Postmark webhook, after basic authentication or the secret path. */
    const postmark = (request: FeedbackRequest) =>
      Effect.gen(function*() {
        if (gate.postmark === null) return yield* notConfigured("postmark")
        yield* gate.postmark(request)
        return yield* apply(yield* Either.flatMap(parseJson(request.text), postmarkReports))
      })

    /** A Mailgun webhook, whose signature is part of its JSON body. */
    const mailgun = (request: FeedbackRequest) =>
      Effect.gen(function*() {
        if (gate.mailgun === null) return yield* notConfigured("mailgun")
        const json = yield* parseJson(request.text)
        const signature = mailgunSignature(json)
        if (signature === null) return yield* unsigned
        yield* gate.mailgun(signature)
        return yield* apply(yield* mailgunReports(json))
      })

    /** A SendGrid Event Webhook batch, after its signature over the raw body. */
    const sendgrid = (request: FeedbackRequest) =>
      Effect.gen(function*() {
        if (gate.sendgrid === null) return yield* notConfigured("sendgrid")
        yield* gate.sendgrid(request)
        return yield* apply(yield* Either.flatMap(parseJson(request.text), sendgridReports))
      })

    const receivers = { ses, postmark, mailgun, sendgrid }

    /** Takes one webhook request of `provider`; what it recorded, or why it was refused. */
    const receive = Effect.fn("ProviderFeedback.receive")(function*(provider: FeedbackProvider, request: FeedbackRequest) {
      return (yield* receivers[provider](request)) as FeedbackReceipt
    })

    return { receive } as const
  })
}) {}
