import { isWebUrl } from "@mailroom/core"

/**
 * The Location header value for a redirect to `url`: its ASCII form (IRIs percent-encoded, host names in punycode)
 * when it is an http(s) URL, else null (stored before URLs were checked, or not a web address): no redirect then.
 */
export const webLocation = (url: string | null): string | null => (url !== null && isWebUrl(url) ? new URL(url).href : null)
