import { expect } from "@effect/vitest"
import type { Reply } from "./TestServer.js"

/** Shape of every timestamp in a response: UTC, six fractional digits, trailing Z. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

/** A name nobody else in the same database uses (tests in one server block share their data). */
export const unique = (prefix: string): string => `${prefix}${Math.random().toString(36).slice(2, 10)}`

/** Whether a `_tag` key occurs anywhere in a JSON value. */
export const hasTagKey = (value: unknown): boolean => {
  if (Array.isArray(value)) return value.some(hasTagKey)
  if (value !== null && typeof value === "object") {
    return Object.entries(value).some(([key, nested]) => key === "_tag" || hasTagKey(nested))
  }
  return false
}

const describeReply = (r: Reply): string => `status ${r.status}, body ${r.text.slice(0, 500)}`

/** An error answer whose JSON body is exactly `{message}` (optionally a given message). */
export const expectMessageOnly = (r: Reply, status: number, message?: string): void => {
  expect(r.status, describeReply(r)).toBe(status)
  expect(r.headers.get("content-type") ?? "", describeReply(r)).toContain("application/json")
  expect(r.body !== null && typeof r.body === "object" ? Object.keys(r.body) : r.body, describeReply(r)).toEqual([
    "message"
  ])
  expect(typeof r.body.message, describeReply(r)).toBe("string")
  if (message !== undefined) expect(r.body.message).toBe(message)
}

/** A 422 whose body is exactly `{message, errors}`, with every given field reported as an array of strings. */
export const expectValidation = (r: Reply, fields: ReadonlyArray<string>): void => {
  expect(r.status, describeReply(r)).toBe(422)
  expect(r.headers.get("content-type") ?? "", describeReply(r)).toContain("application/json")
  expect(r.body !== null && typeof r.body === "object" ? Object.keys(r.body).sort() : r.body, describeReply(r))
    .toEqual(["errors", "message"])
  expect(typeof r.body.message, describeReply(r)).toBe("string")
  expect(r.body.message.length, describeReply(r)).toBeGreaterThan(0)
  expect(hasTagKey(r.body), describeReply(r)).toBe(false)
  for (const field of fields) {
    const messages: unknown = r.body.errors[field]
    expect(Array.isArray(messages), `errors.${field} in ${describeReply(r)}`).toBe(true)
    expect((messages as Array<unknown>).length, `errors.${field} in ${describeReply(r)}`).toBeGreaterThan(0)
    for (const message of messages as Array<unknown>) {
      expect(typeof message, `errors.${field} in ${describeReply(r)}`).toBe("string")
    }
  }
}

/** A success status, with the reply in the failure message. */
export const expectStatus = (r: Reply, status: number): void => {
  expect(r.status, describeReply(r)).toBe(status)
}

/** Query string for a collection request: the given params, URL-encoded. */
export const query = (params: Record<string, string | number>): string =>
  Object.entries(params).map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`).join("&")
