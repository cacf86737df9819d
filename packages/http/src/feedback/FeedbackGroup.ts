import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { MalformedFeedbackError, NotFoundError, UnauthorizedError } from "../ApiErrors.js"
import { FeedbackReceiptResource } from "./FeedbackReceiptResource.js"

/** A provider's webhook: no bearer token (the provider authenticates its own way), the raw body read by the handler. */
const webhook = <const Name extends string>(name: Name, path: `/${string}`, summary: string, description: string) =>
  HttpApiEndpoint.post(name, path)
    .annotate(OpenApi.Summary, summary)
    .addSuccess(FeedbackReceiptResource)
    .addError(UnauthorizedError)
    .addError(NotFoundError)
    .addError(MalformedFeedbackError)
    .annotate(OpenApi.Description, description)

/** /feedback/{provider}: bounce and complaint webhooks of Amazon SES (over SNS), Postmark, Mailgun and SendGrid. */
export class FeedbackGroup extends HttpApiGroup.make("providerFeedback")
  .add(
    webhook(
      "ses",
      "/feedback/ses",
      "Amazon SES feedback (SNS)",
      "Amazon SNS deliveries of SES bounce and complaint notifications, verified by their SNS signature (and topic); " +
        "a SubscriptionConfirmation is confirmed. 404 unless SES_SNS_ENABLED or SES_SNS_TOPIC_ARNS is set."
    )
  )
  .add(
    webhook(
      "postmark",
      "/feedback/postmark",
      "Postmark feedback (basic auth)",
      "Postmark bounce and spam complaint webhooks, with HTTP basic authentication (POSTMARK_WEBHOOK_USER/PASSWORD)."
    )
  )
  .add(
    webhook(
      "postmarkSecret",
      "/feedback/postmark/:secret",
      "Postmark feedback (secret path)",
      "Postmark bounce and spam complaint webhooks, authenticated by the secret path segment (POSTMARK_WEBHOOK_SECRET)."
    ).setPath(Schema.Struct({ secret: Schema.String }))
  )
  .add(
    webhook(
      "mailgun",
      "/feedback/mailgun",
      "Mailgun feedback",
      "Mailgun `failed` and `complained` webhooks (JSON), verified by their HMAC signature (MAILGUN_WEBHOOK_SIGNING_KEY)."
    )
  )
  .add(
    webhook(
      "sendgrid",
      "/feedback/sendgrid",
      "SendGrid feedback",
      "SendGrid Event Webhook batches (bounce, dropped, spamreport), verified by their ECDSA signature " +
        "(SENDGRID_WEBHOOK_PUBLIC_KEY)."
    )
  )
  .annotate(OpenApi.Description, "Bounces and complaints from email providers, applied through the bounce policy.")
{}
