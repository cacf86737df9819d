import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { escapeHtml, type NotFound, Tracking, WebViews } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { WEBVIEW_POLICY } from "../securityHeaders.js"
import { htmlPage } from "./htmlPage.js"
import { webLocation } from "./webLocation.js"

const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64")

const notFound = () => Effect.succeed(htmlPage("Link not valid", "<p>This link is not valid (any more).</p>", 404))

/** The unsubscribe page of a test mail: what the link does in a real mail; nothing changes. */
const preview = htmlPage(
  "Unsubscribe (test mail)",
  "<p>This is a test mail. In the mail a subscriber gets, this link opens the page where they unsubscribe " +
    "from the list. Nothing was changed.</p>"
)

/** A web view page, or the 404 page. */
const page = <R>(html: Effect.Effect<string, NotFound, R>) =>
  html.pipe(
    Effect.map((text) =>
      HttpServerResponse.text(text, {
        contentType: "text/html; charset=utf-8",
        headers: { "content-security-policy": WEBVIEW_POLICY }
      })
    ),
    Effect.catchTag("NotFound", notFound)
  )

/** Handlers of the public links in campaign mails. */
export const TrackingLive = HttpApiBuilder.group(Api, "tracking", (handlers) =>
  Effect.map(Effect.all([Tracking, WebViews]), ([tracking, webviews]) =>
    handlers
      .handle("open", ({ path }) =>
        tracking.open(path.send, path.signature).pipe(
          Effect.as(HttpServerResponse.uint8Array(PIXEL, {
            contentType: "image/gif",
            headers: { "cache-control": "no-store, no-cache, must-revalidate, private" }
          })),
          Effect.catchTag("NotFound", notFound)
        ))
      .handle("click", ({ path }) =>
        tracking.click(path.send, path.link, path.signature).pipe(
          Effect.flatMap((url) => {
            const location = webLocation(url)
            return location === null
              ? notFound()
              : Effect.succeed(HttpServerResponse.redirect(location, { status: 302, headers: { "cache-control": "no-store" } }))
          }),
          Effect.catchTag("NotFound", notFound)
        ))
      .handle("unsubscribePage", ({ path }) =>
        tracking.unsubscribeInfo(path.send, path.signature).pipe(
          Effect.map((info) =>
            info.preview
              ? preview
              : info.unsubscribed
              ? htmlPage("Unsubscribed", `<p>${escapeHtml(info.email)} is not subscribed${info.listName ? ` to ${escapeHtml(info.listName)}` : ""}.</p>`)
              : htmlPage(
                "Unsubscribe",
                `<p>Stop mail from ${escapeHtml(info.listName ?? "this list")} to ${escapeHtml(info.email)}?</p>` +
                  `<form method="post"><button type="submit">Unsubscribe</button></form>`
              )
          ),
          Effect.catchTag("NotFound", notFound)
        ))
      .handle("unsubscribe", ({ path }) =>
        tracking.unsubscribe(path.send, path.signature).pipe(
          Effect.map((info) =>
            info.preview
              ? preview
              : webLocation(info.redirect) !== null
              ? HttpServerResponse.redirect(webLocation(info.redirect)!, { status: 303 })
              : htmlPage("Unsubscribed", `<p>${escapeHtml(info.email)} will get no more mail${info.listName ? ` from ${escapeHtml(info.listName)}` : ""}.</p>`)
          ),
          Effect.catchTag("NotFound", notFound)
        ))
      .handle("webview", ({ path }) => page(webviews.campaign(path.campaign)))
      .handle("webviewPersonal", ({ path }) => page(webviews.campaign(path.campaign, path.send, path.signature)))))
