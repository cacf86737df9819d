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
  status: number
) =>
  Schema.transform(MessageBody, Schema.declare((u): u is E => u instanceof ErrorClass), {
    strict: true,
    decode: ({ message }) => new ErrorClass({ message }),
    encode: (error) => ({ message: error.message })
  }).annotations({ ...HttpApiSchema.annotations({ status }), identifier })

/** 404 `{message}`. */
export const NotFoundError = messageError("NotFoundError", NotFound, 404)
/** 400 `{message}` for an unknown sort, filter or include. */
export const InvalidQueryError = messageError("InvalidQueryError", InvalidQuery, 400)
/** 401 `{"message":"Unauthorized."}`. */
export const UnauthorizedError = messageError("UnauthorizedError", Unauthenticated, 401)
/** 403 `{"message":"This action is unauthorized."}`. */
export const ForbiddenError = messageError("ForbiddenError", Forbidden, 403)

/** 422 `{message, errors: {field: [messages]}}`. */
export const ValidationFailedError = Schema.transform(
  Schema.Struct({ message: Schema.String, errors: FieldErrors }),
  Schema.declare((u): u is ValidationError => u instanceof ValidationError),
  {
    strict: true,
    decode: (body) => new ValidationError(body),
    encode: (error) => ({ message: error.message, errors: error.errors })
  }
).annotations({ ...HttpApiSchema.annotations({ status: 422 }), identifier: "ValidationFailedError" })

/** 422 `{message}` for an action the resource's state does not allow (e.g. confirming a subscribed address). */
export const InvalidStateError = messageError("InvalidStateError", InvalidState, 422)

/** 400 `{message}` when a campaign cannot be sent (already sent, no list, sender, subject or content). */
export const CampaignNotSendableError = messageError("CampaignNotSendableError", CampaignNotSendable, 400)

/** 409 `{message}` when a campaign cannot be paused or resumed from its status (or its segment is gone). */
export const CampaignConflictError = messageError("CampaignConflictError", CampaignConflict, 409)

/** 406 `{message, suppressed}` when a transactional mail names suppressed addresses (all of them). */
export const MailSuppressedError = Schema.transform(
  Schema.Struct({ message: Schema.String, suppressed: Schema.Array(Schema.String) }),
  Schema.declare((u): u is MailSuppressed => u instanceof MailSuppressed),
  {
    strict: true,
    decode: (body) => new MailSuppressed(body),
    encode: (error) => ({ message: error.message, suppressed: error.suppressed })
  }
).annotations({ ...HttpApiSchema.annotations({ status: 406 }), identifier: "MailSuppressedError" })

/** 400 `{message}` for a provider's webhook body that is not in the provider's format. */
export const MalformedFeedbackError = messageError("MalformedFeedbackError", MalformedFeedback, 400)

/** 400 `{message}` when the trigger endpoint is called for an automation without a webhook trigger. */
export const AutomationNotTriggerableError = messageError("AutomationNotTriggerableError", AutomationNotTriggerable, 400)

/** 409 `{message}` when an automation mail to delete is sent by a started automation. */
export const AutomationMailInUseError = messageError("AutomationMailInUseError", AutomationMailInUse, 409)
