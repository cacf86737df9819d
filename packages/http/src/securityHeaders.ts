import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

/** The policy of Mailroom's own pages (confirmation, unsubscribe): no scripts, no frames, forms post back here only. */
export const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'"

/**
 * The policy of a web view (campaign HTML as sent): a sandbox with no scripts and no same-origin rights, so nothing
 * in a campaign runs on Mailroom's origin; images, styles and fonts load from anywhere, links open normally.
 */
export const WEBVIEW_POLICY = "sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation; " +
  "default-src 'none'; img-src * data:; style-src * 'unsafe-inline'; font-src * data:; frame-ancestors 'none'; base-uri 'none'"

const DEFAULTS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY"
}

const withDefaults = (response: HttpServerResponse.HttpServerResponse) => {
  const missing = Object.entries(DEFAULTS).filter(([name]) => response.headers[name] === undefined)
  return missing.length === 0 ? response : HttpServerResponse.setHeaders(response, Object.fromEntries(missing))
}

/**
 * Adds the headers every response carries: `nosniff`, `no-referrer` (public pages hold signed URLs that must not leak
 * to the sites they link to) and `X-Frame-Options: DENY`; headers a handler set itself are kept. Handlers' answers are
 * written before middleware sees them, so the headers go in as a pre-response handler; answers the middleware inside
 * this one gives without a handler (413, 415, 422 for bodies) get them on the way out.
 */
export const securityHeaders = (app: HttpApp.Default): HttpApp.Default =>
  Effect.zipRight(
    HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(withDefaults(response))),
    Effect.map(app, withDefaults)
  )
