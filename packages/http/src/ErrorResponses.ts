import { HttpApiBuilder, HttpApiError, HttpServerError, HttpServerResponse } from "@effect/platform"
import { ValidationError } from "@mailroom/core"
import { Cause, Effect } from "effect"
import { Api } from "./Api.js"

const json = (status: number, body: object) => HttpServerResponse.unsafeJson(body, { status })

const tooLarge = (error: HttpServerError.RequestError): boolean =>
  /max|too large|exceed/i.test(String((error.cause as { message?: unknown } | undefined)?.message ?? error.cause ?? ""))

const expected = /^Expected (\w+)/

/**
 * Field errors from a request decode failure, keyed by the issue path joined with dots. Schema reports each member
 * of a union ("Expected string…", "Expected null…"); those collapse into one readable message per field, and a
 * field whose items have their own errors (`tags.1`) gets no generic message of its own. A key the schema does not
 * know gets "The <key> field is unknown."
 */
const fieldErrors = (error: HttpApiError.HttpApiDecodeError): Record<string, Array<string>> => {
  const errors: Record<string, Array<string>> = {}
  for (const issue of error.issues) {
    const key = issue.path.length === 0 ? "body" : issue.path.join(".")
    const message = issue._tag === "Unexpected" ? `The ${key} field is unknown.` : issue.message
    const messages = (errors[key] ??= [])
    if (!messages.includes(message)) messages.push(message)
  }
  const keys = Object.keys(errors)
  for (const [key, messages] of Object.entries(errors)) {
    const written = messages.filter((message) => !expected.test(message))
    if (written.length > 0) {
      errors[key] = written
      continue
    }
    if (keys.some((other) => other.startsWith(`${key}.`))) {
      delete errors[key]
      continue
    }
    const type = expected.exec(messages[0] ?? "")?.[1]
    errors[key] = key === "body"
      ? ["The request body must be a JSON object."]
      : [`The ${key.replace(/_/g, " ")} field must be ${type === undefined ? "valid" : `a ${type}`}.`]
  }
  return errors
}

/**
 * Shapes every failure the endpoints do not encode themselves into a JSON 4xx (never a 5xx for client input):
 * decode failures and malformed JSON become 422 `{message, errors}`, bodies over the limit 413, unknown routes 404.
 * Defects are logged and answered 500 `{"message":"Server Error."}` with no detail.
 */
export const ErrorResponses = HttpApiBuilder.middleware(Api, (app) =>
  Effect.catchAllCause(app, (cause) => {
    if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
    const error: unknown = Cause.squash(cause)
    if (error instanceof HttpApiError.HttpApiDecodeError) return Effect.fail(ValidationError.fromErrors(fieldErrors(error)))
    // a body refused by guardBodies, found when the endpoint reads it
    if (error instanceof ValidationError) return Effect.fail(error)
    if (error instanceof HttpServerError.RequestError) {
      return Effect.succeed(
        tooLarge(error)
          ? json(413, { message: "The request body is too large." })
          : json(422, { message: "The request body is not valid JSON.", errors: {} })
      )
    }
    if (error instanceof HttpServerError.RouteNotFound) return Effect.succeed(json(404, { message: "Not found." }))
    if (Cause.isFailure(cause)) return Effect.failCause(cause)
    return Effect.logError("Unhandled defect", cause).pipe(Effect.as(json(500, { message: "Server Error." })))
  }))
