import type { ApiError } from "../api/client"

/** An API error as a message the user can act on (field errors are shown at their fields instead). */
export const ErrorMessage = ({ error }: { error: ApiError | undefined }) => {
  if (error === undefined) return null
  const text =
    error.status === 403
      ? "This token may not do that: ask for a token with more abilities."
      : error.status === 404
      ? `Not found: ${error.message}`
      : error.message
  return (
    <p class="error" role="alert">
      {text}
    </p>
  )
}

/**
 * The error of a form: for a 422, the messages of fields the form does not show (its own fields show theirs);
 * any other error as a message.
 */
export const FormError = ({ error, fields }: { error: ApiError | undefined; fields: ReadonlyArray<string> }) => {
  if (error === undefined) return null
  if (error.status !== 422) return <ErrorMessage error={error} />
  const others = Object.entries(error.errors).filter(([field]) => !fields.includes(field))
  return (
    <div class="error" role="alert">
      <p>{others.length === 0 ? "Check the fields marked below." : error.message}</p>
      {others.length > 0 && (
        <ul>
          {others.map(([field, messages]) => (
            <li key={field}>
              {field}: {messages.join(" ")}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
