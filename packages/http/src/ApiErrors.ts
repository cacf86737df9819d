import { HttpApiSchema } from "@effect/platform"
import {
  AutomationMailInUse,
  AutomationNotTriggerable,
  CampaignConflict,
  CampaignNotSendable,
  FieldErrors,
  Forbidden,
  InvalidQuery,
  InvalidState,
  MailSuppressed,
  MalformedFeedback,
  NotFound,
  Unauthenticated,
  ValidationError
} from "@mailroom/core"
import { Schema } from "effect"

const MessageBody = Schema.Struct({ message: Schema.String })

/**
 * Maps a core error class to an HTTP status with a body of exactly `{message}`. Matching is by `instanceof`,
 * so no other failure or defect that happens to carry a message can be encoded as this error.
 */
const messageError = <E extends { readonly message: string }>(
  identifier: string,
  ErrorClass: new(props: { readonly message: string }) => E,
  status: number,
  description: string
) =>
  Schema.transform(MessageBody, Schema.declare((u): u is E => u instanceof ErrorClass), {
    strict: true,
    decode: ({ message }) => new ErrorClass({ message }),
    encode: (error) => ({ message: error.message })
  }).annotations({ ...HttpApiSchema.annotations({ status }), identifier, description })

/** 404 `{message}`. */
export const NotFoundError = messageError("NotFoundError", NotFound, 404, "Not found.")
/** 400 `{message}` for an unknown sort, filter or include. */
export const InvalidQueryError = messageError(
  "InvalidQueryError",
  InvalidQuery,
  400,
  "An unknown sort, filter or include key; the message names the allowed ones."
)
/** 401 `{"message":"Unauthorized."}`. */
export const UnauthorizedError = messageError("UnauthorizedError", Unauthenticated, 401, "No bearer token, or not a valid one.")
/** 403 `{"message":"This action is unauthorized."}`. */
export const ForbiddenError = messageError("ForbiddenError", Forbidden, 403, "The token lacks the ability this operation needs.")

/** 422 `{message, errors: {field: [messages]}}`. */
export const ValidationFailedError = Schema.transform(
  Schema.Struct({ message: Schema.String, errors: FieldErrors }),
  Schema.declare((u): u is ValidationError => u instanceof ValidationError),
  {
    strict: true,
    decode: (body) => new ValidationError(body),
    encode: (error) => ({ message: error.message, errors: error.errors })
  }
).annotations({
  ...HttpApiSchema.annotations({ status: 422 }),
  identifier: "ValidationFailedError",
  description: "The request is not valid: `errors` names each field (a body that is not JSON has none)."
})

/** 422 `{message}` for an action the resource's state does not allow (e.g. confirming a subscribed address). */
export const InvalidStateError = messageError(
  "InvalidStateError",
  InvalidState,
  422,
  "The resource's state does not allow this action."
)

/** 400 `{message}` when a campaign cannot be sent (already sent, no list, sender, subject or content). */
export const CampaignNotSendableError = messageError(
  "CampaignNotSendableError",
  CampaignNotSendable,
  400,
  "The campaign cannot be sent (already sent, or no list, sender, subject or content)."
)

/** 409 `{message}` when a campaign cannot be paused or resumed from its status (or its segment is gone). */
export const CampaignConflictError = messageError(
  "CampaignConflictError",
  CampaignConflict,
  409,
  "The campaign cannot be paused or resumed from its status."
)

/** 406 `{message, suppressed}` when a transactional mail names suppressed addresses (all of them). */
export const MailSuppressedError = Schema.transform(
  Schema.Struct({ message: Schema.String, suppressed: Schema.Array(Schema.String) }),
  Schema.declare((u): u is MailSuppressed => u instanceof MailSuppressed),
  {
    strict: true,
    decode: (body) => new MailSuppressed(body),
    encode: (error) => ({ message: error.message, suppressed: error.suppressed })
  }
).annotations({
  ...HttpApiSchema.annotations({ status: 406 }),
  identifier: "MailSuppressedError",
  description: "Every recipient is suppressed; nothing was sent."
})

/** 400 `{message}` for a provider's webhook body that is not in the provider's format. */
export const MalformedFeedbackError = messageError(
  "MalformedFeedbackError",
  MalformedFeedback,
  400,
  "The body is not in the provider's format."
)

/** 400 `{message}` when the trigger endpoint is called for an automation without a webhook trigger. */
export const AutomationNotTriggerableError = messageError(
  "AutomationNotTriggerableError",
  AutomationNotTriggerable,
  400,
  "The automation has no webhook trigger."
)

/** 409 `{message}` when an automation mail to delete is sent by a started automation. */
export const AutomationMailInUseError = messageError(
  "AutomationMailInUseError",
  AutomationMailInUse,
  409,
  "A started automation sends this mail."
)

/** The `{message}` body of the answers the server's middleware gives before any endpoint runs (413, 415, 429). */
const transportError = (identifier: string, description: string) =>
  Schema.Struct({ message: Schema.String }).annotations({ identifier, description })

/** 413 `{message}`: the request body is over the server's limit (10 MiB by default). */
export const PayloadTooLargeError = transportError("PayloadTooLargeError", "The request body is over the size limit.")
/** 415 `{message}`: an /api body that is not JSON, or any multipart body. */
export const UnsupportedMediaTypeError = transportError(
  "UnsupportedMediaTypeError",
  "The request body is not JSON (Content-Type: application/json)."
)
/** 429 `{message}` with Retry-After: the token's requests this minute are over RATE_LIMIT_PER_MINUTE. */
export const TooManyRequestsError = transportError(
  "TooManyRequestsError",
  "Over the token's requests per minute (RATE_LIMIT_PER_MINUTE); Retry-After says when to try again."
)
