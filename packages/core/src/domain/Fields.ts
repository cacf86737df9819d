import { Schema } from "effect"
import { isEmail, splitEmails } from "./Email.js"

const label = (key: string) => key.replace(/_/g, " ")
const actualOf = (issue: unknown) => (issue as { readonly actual?: unknown }).actual

const noNul = (key: string) => `The ${label(key)} field must not contain NUL characters.`

/**
 * A string field of at most `max` characters and without NUL (Postgres cannot store it in text), with Laravel-style
 * messages: null reads as "required", other types as "must be a string".
 */
export const Text = (key: string, max = 255) =>
  Schema.String.annotations({
    message: (issue) =>
      actualOf(issue) === null ? `The ${label(key)} field is required.` : `The ${label(key)} field must be a string.`
  }).pipe(
    Schema.maxLength(max, { message: () => `The ${label(key)} field must not be greater than ${max} characters.` }),
    Schema.filter((s) => !s.includes("\u0000"), { message: () => noNul(key) })
  )

/** A non-empty (after trimming) string field. */
export const RequiredText = (key: string, max = 255) =>
  Text(key, max).pipe(
    Schema.filter((s) => s.trim().length > 0, { message: () => `The ${label(key)} field is required.` })
  )

/** A string or null. */
export const NullableText = (key: string, max = 255) =>
  Schema.NullOr(Schema.String).annotations({ message: () => `The ${label(key)} field must be a string.` }).pipe(
    Schema.filter((s) => s === null || s.length <= max, {
      message: () => `The ${label(key)} field must not be greater than ${max} characters.`
    }),
    Schema.filter((s) => s === null || !s.includes("\u0000"), { message: () => noNul(key) })
  )

/**
 * The most characters of a template's or campaign's HTML: ten times the size at which Gmail clips a mail (102 KB),
 * and small enough that a page of 100 of them stays a response a server can hold.
 */
export const MAX_HTML = 1_000_000

/** Whether `url` is an absolute http(s) URL with a host and no whitespace or control characters. */
export const isWebUrl = (url: string): boolean => {
  if (/[\u0000-\u0020\u007F-\u009F]/.test(url) || !URL.canParse(url)) return false
  const parsed = new URL(url)
  return (parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.hostname !== ""
}

/** Null, empty, or an absolute http(s) URL (redirect targets): never `javascript:`, `//host` or control characters. */
export const NullableWebUrl = (key: string, max = 2048) =>
  NullableText(key, max).pipe(
    Schema.filter((s) => s === null || s === "" || isWebUrl(s), {
      message: () => `The ${label(key)} field must be an http or https URL.`
    })
  )

/** A valid email address. */
export const EmailText = (key: string) =>
  RequiredText(key).pipe(
    Schema.filter((s) => isEmail(s.trim()), { message: () => `The ${label(key)} field must be a valid email address.` })
  )

/** Null, or a comma-separated list of valid email addresses. */
export const NullableEmailList = (key: string) =>
  NullableText(key, 2000).pipe(
    Schema.filter((s) => s === null || splitEmails(s).every(isEmail), {
      message: () => `The ${label(key)} field must contain valid email addresses, separated by commas.`
    })
  )

const BooleanLike = Schema.Union(
  Schema.Boolean,
  Schema.transform(Schema.Literal(0, 1), Schema.Boolean, { strict: true, decode: (n) => n === 1, encode: (b) => (b ? 1 : 0) })
)

/** A boolean field; accepts true/false and 1/0 (null reads as absent). */
export const Flag = (key: string) =>
  BooleanLike.annotations({ message: () => `The ${label(key)} field must be true or false.` })

/** A required property read from the snake_case wire key, with a "field is required" message when absent. */
export const required = <S extends Schema.Schema.Any>(key: string, schema: S) =>
  Schema.propertySignature(schema).annotations({ missingMessage: () => `The ${label(key)} field is required.` }).pipe(
    Schema.fromKey(key)
  )

/** An optional property read from the snake_case wire key. */
export const optional = <S extends Schema.Schema.Any>(key: string, schema: S) =>
  Schema.optional(schema).pipe(Schema.fromKey(key))

/** An optional property that may also be null; null is treated as absent. */
export const optionalNullable = <S extends Schema.Schema.Any>(key: string, schema: S) =>
  Schema.optionalWith(schema, { nullable: true }).pipe(Schema.fromKey(key))

/** An array of strings (each at most `max` characters), e.g. tag names. */
export const TextList = (key: string, max = 255) =>
  Schema.Array(
    Schema.String.annotations({ message: () => `Each of the ${label(key)} must be a string.` }).pipe(
      Schema.maxLength(max, { message: () => `Each of the ${label(key)} must not be greater than ${max} characters.` }),
      Schema.filter((s) => !s.includes("\u0000"), { message: () => `Each of the ${label(key)} must not contain NUL characters.` })
    )
  ).annotations({ message: () => `The ${label(key)} field must be an array.` })
