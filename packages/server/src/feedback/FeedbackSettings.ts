import { Config, Option, Redacted } from "effect"

const optionalText = (name: string) =>
  Config.string(name).pipe(Config.withDefault(""), Config.map((value) => value.trim() || null))

const optionalSecret = (name: string) =>
  Config.option(Config.redacted(name)).pipe(
    Config.map((value) => Option.filter(value, (secret) => Redacted.value(secret).trim() !== ""))
  )

/** The provider feedback settings as the environment gives them (README, "Provider feedback"). */
export const FeedbackSettings = Config.all({
  sesEnabled: Config.boolean("SES_SNS_ENABLED").pipe(Config.withDefault(false)),
  /** Comma-separated topic ARNs whose notifications are taken; setting it also turns SES feedback on. */
  sesTopicArns: optionalText("SES_SNS_TOPIC_ARNS").pipe(
    Config.map((list) => (list === null ? null : list.split(",").map((arn) => arn.trim()).filter((arn) => arn !== "")))
  ),
  /** A PEM file or a directory of them: the SNS signing certificates to trust instead of fetching SigningCertURL. */
  sesCertificates: optionalText("SES_SNS_CERTIFICATES"),
  /** One more origin (scheme, host, port) a SubscribeURL may point at, besides SNS's own (an SNS emulator, tests). */
  sesSubscribeOrigin: optionalText("SES_SNS_SUBSCRIBE_ORIGIN").pipe(
    Config.validate({
      message: "SES_SNS_SUBSCRIBE_ORIGIN must be an origin such as http://localhost:4566",
      validation: (origin) => origin === null || URL.canParse(origin)
    }),
    Config.map((origin) => (origin === null ? null : new URL(origin).origin))
  ),
  postmarkUser: optionalText("POSTMARK_WEBHOOK_USER"),
  postmarkPassword: optionalSecret("POSTMARK_WEBHOOK_PASSWORD"),
  postmarkSecret: optionalSecret("POSTMARK_WEBHOOK_SECRET"),
  mailgunSigningKey: optionalSecret("MAILGUN_WEBHOOK_SIGNING_KEY"),
  /** SendGrid's verification key: base64 DER (SubjectPublicKeyInfo) as SendGrid shows it, or PEM. */
  sendgridPublicKey: optionalText("SENDGRID_WEBHOOK_PUBLIC_KEY")
})

/** The provider feedback settings. */
export type FeedbackSettings = Config.Config.Success<typeof FeedbackSettings>
