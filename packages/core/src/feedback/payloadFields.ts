import { Either } from "effect"
import { MalformedFeedback } from "./MalformedFeedback.js"

/** A JSON object (not an array, not null). */
export type JsonObject = Readonly<Record<string, unknown>>

/** Whether a JSON value is an object. */
export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Parses a JSON text; MalformedFeedback naming `what` when it is not JSON. */
export const parseJson = (text: string, what = "The request body"): Either.Either<unknown, MalformedFeedback> =>
  Either.try({ try: () => JSON.parse(text) as unknown, catch: () => MalformedFeedback.of(`${what} is not valid JSON.`) })

/** A JSON value as an object; MalformedFeedback naming `what` otherwise. */
export const asObject = (value: unknown, what: string): Either.Either<JsonObject, MalformedFeedback> =>
  isObject(value) ? Either.right(value) : Either.left(MalformedFeedback.of(`${what} must be a JSON object.`))

/** The string at `key`, or null when it is missing or not a non-empty string. */
export const stringAt = (object: JsonObject | undefined, key: string): string | null => {
  const value = object?.[key]
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null
}

/** The object at `key`, or undefined. */
export const objectAt = (object: JsonObject | undefined, key: string): JsonObject | undefined => {
  const value = object?.[key]
  return isObject(value) ? value : undefined
}

/** The array at `key` (empty when missing or not an array). */
export const arrayAt = (object: JsonObject | undefined, key: string): ReadonlyArray<unknown> => {
  const value = object?.[key]
  return Array.isArray(value) ? value : []
}

/** The address of a recipient field, which may be written `Name <address>`. */
export const addressOf = (text: string | null): string | null => {
  if (text === null) return null
  const bracketed = /<([^<>\s]+)>/.exec(text)
  return (bracketed?.[1] ?? text).trim()
}
