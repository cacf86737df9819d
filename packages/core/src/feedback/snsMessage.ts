import { Either, ParseResult, Schema } from "effect"
import { MalformedFeedback } from "./MalformedFeedback.js"

/** An Amazon SNS HTTP(S) delivery: a notification or a (un)subscription confirmation, signed by SNS. */
export const SnsMessage = Schema.Struct({
  Type: Schema.Literal("Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"),
  MessageId: Schema.String,
  TopicArn: Schema.String,
  Message: Schema.String,
  Timestamp: Schema.String,
  SignatureVersion: Schema.Literal("1", "2"),
  Signature: Schema.String,
  SigningCertURL: Schema.String,
  Subject: Schema.optional(Schema.NullOr(Schema.String)),
  Token: Schema.optional(Schema.String),
  SubscribeURL: Schema.optional(Schema.String)
})
/** @since 0.1.0 */
export type SnsMessage = typeof SnsMessage.Type

const decode = Schema.decodeUnknownEither(SnsMessage)

/** Reads an SNS delivery from its parsed JSON body; MalformedFeedback naming the first field that is wrong. */
export const decodeSnsMessage = (json: unknown): Either.Either<SnsMessage, MalformedFeedback> =>
  Either.mapLeft(decode(json), (error) => {
    const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
    const where = issue === undefined || issue.path.length === 0 ? "" : ` (${issue.path.join(".")})`
    return MalformedFeedback.of(`The body is not an SNS message${where}: ${issue?.message ?? "invalid"}.`)
  })

/** The fields SNS signs, in the documented order; Subject only when the notification has one. */
const SIGNED_FIELDS = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"]
} as const

/**
 * The canonical string SNS signs: each signed field as `Name\nvalue\n`, in byte order of the names. A confirmation
 * without its Token or SubscribeURL is malformed.
 */
export const snsStringToSign = (message: SnsMessage): Either.Either<string, MalformedFeedback> => {
  let text = ""
  for (const field of SIGNED_FIELDS[message.Type]) {
    const value = message[field]
    if (value === undefined || value === null) {
      if (field === "Subject") continue
      return Either.left(MalformedFeedback.of(`The SNS ${message.Type} has no ${field}.`))
    }
    text += `${field}\n${value}\n`
  }
  return Either.right(text)
}

/** The signature algorithm of an SNS signature version: 1 is SHA1withRSA, 2 is SHA256withRSA. */
export const snsSignatureHash = (message: SnsMessage): "sha1" | "sha256" => (message.SignatureVersion === "1" ? "sha1" : "sha256")
