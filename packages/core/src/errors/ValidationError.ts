import { Schema } from "effect"

/** Field errors: each invalid field name mapped to its messages. */
export const FieldErrors = Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })
/** @since 0.1.0 */
export type FieldErrors = typeof FieldErrors.Type

/** Input failed validation; `errors` maps each invalid field to its messages. */
export class ValidationError extends Schema.TaggedError<ValidationError>()("ValidationError", {
  message: Schema.String,
  errors: FieldErrors
}) {
  /** Builds the error with the summary message `<first error> (and N more errors)`. */
  static fromErrors(errors: FieldErrors): ValidationError {
    return new ValidationError({ message: summarize(errors), errors })
  }

  /** A validation error on one field. */
  static field(field: string, message: string): ValidationError {
    return ValidationError.fromErrors({ [field]: [message] })
  }
}

const summarize = (errors: FieldErrors): string => {
  const all = Object.values(errors).flat()
  const first = all[0] ?? "The given data was invalid."
  const more = all.length - 1
  return more === 0 ? first : `${first} (and ${more} more error${more === 1 ? "" : "s"})`
}
