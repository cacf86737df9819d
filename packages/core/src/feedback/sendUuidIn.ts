import { isObject } from "./payloadFields.js"

/** Names under which providers echo the send's uuid: the mail's header, or a custom variable set to it. */
const SEND_KEYS = new Set(["x-mailroom-send", "mailroom-send", "mailroom_send", "mailroomsend"])

/** The first line of a header value: the send's uuid as written, maybe in angle brackets. */
const cleaned = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" ? value.trim().replace(/^<(.*)>$/, "$1") : null

/**
 * The send's uuid in a provider's header list (`[{name, value}]`, any case of the keys) or in an object of headers or
 * custom variables (`{"X-Mailroom-Send": …}` or `{"mailroom_send": …}`), or null.
 */
export const sendUuidIn = (headers: unknown): string | null => {
  if (Array.isArray(headers)) {
    for (const header of headers) {
      if (!isObject(header)) continue
      const name = header["name"] ?? header["Name"]
      if (typeof name === "string" && SEND_KEYS.has(name.trim().toLowerCase())) {
        const value = cleaned(header["value"] ?? header["Value"])
        if (value !== null) return value
      }
    }
    return null
  }
  if (!isObject(headers)) return null
  for (const [name, value] of Object.entries(headers)) {
    if (SEND_KEYS.has(name.trim().toLowerCase()) && cleaned(value) !== null) return cleaned(value)
  }
  return null
}

/** The X-Mailroom-Send header in a raw message head (e.g. a bounce report's copy of the original), or null. */
export const sendUuidInRaw = (message: string | null): string | null => {
  if (message === null) return null
  const found = /^X-Mailroom-Send:[ \t]*<?([0-9A-Fa-f-]{36})>?/im.exec(message)
  return found?.[1] ?? null
}
