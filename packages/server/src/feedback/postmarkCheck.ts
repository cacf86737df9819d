import { type RequestCheck, Unauthenticated } from "@mailroom/core"
import { Effect } from "effect"
import { safeEqual } from "./safeEqual.js"

const refused = new Unauthenticated({ message: "The Postmark webhook credentials are not valid." })

/** The user and password of a `Basic` Authorization header, or null. */
const basicCredentials = (header: string | undefined): { user: string; password: string } | null => {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "")
  if (match === null) return null
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  return colon < 0 ? null : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

/**
 * Postmark's webhook authentication: HTTP basic auth with the configured user and password (Postmark sends them from
 * the webhook URL's `user:password@`), or the configured secret as the last path segment. Either is accepted when it
 * is configured; null when neither is (Postmark feedback off).
 */
export const postmarkCheck = (options: {
  readonly user: string | null
  readonly password: string | null
  readonly secret: string | null
}): RequestCheck | null => {
  const { password, secret, user } = options
  const basic = user !== null && password !== null ? { user, password } : null
  if (basic === null && secret === null) return null
  return (request) => {
    if (request.secret !== null) return secret !== null && safeEqual(request.secret, secret) ? Effect.void : Effect.fail(refused)
    const given = basicCredentials(request.headers["authorization"])
    const valid = basic !== null && given !== null && safeEqual(given.user, basic.user) && safeEqual(given.password, basic.password)
    return valid ? Effect.void : Effect.fail(refused)
  }
}
