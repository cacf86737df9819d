import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { PublicPaths } from "@mailroom/core"
import { Schema } from "effect"
import { Gif, Html, LinkNotValid, Redirect, withLocation } from "./publicLinkResponses.js"

const SendPath = Schema.Struct({ send: Schema.String, signature: Schema.String })
const clickTarget = "The link's address."
const unsubscribeTarget = "The list's redirect_after_unsubscribed page."

/** Public links inside campaign mails: open pixel, click redirect, unsubscribe page and one-click unsubscribe, web view. */
export class TrackingGroup extends HttpApiGroup.make("tracking")
  .add(
    HttpApiEndpoint.get("open", `${PublicPaths.open}/:send/:signature`)
      .annotate(OpenApi.Summary, "Open pixel")
      .setPath(SendPath)
      .addSuccess(Gif)
      .addError(LinkNotValid)
      .annotate(OpenApi.Description, "A 1×1 transparent GIF; counts an open of the send.")
  )
  .add(
    HttpApiEndpoint.get("click", `${PublicPaths.click}/:send/:link/:signature`)
      .annotate(OpenApi.Summary, "Tracked link redirect")
      .setPath(Schema.Struct({ send: Schema.String, link: Schema.String, signature: Schema.String }))
      .addSuccess(Redirect(302, "Redirect to the link's address."))
      .addError(LinkNotValid)
      .annotate(OpenApi.Description, "Counts a click and redirects (302) to the link's address.")
      .annotate(OpenApi.Transform, withLocation(302, clickTarget))
  )
  .add(
    HttpApiEndpoint.get("unsubscribePage", `${PublicPaths.unsubscribe}/:send/:signature`)
      .annotate(OpenApi.Summary, "Unsubscribe page")
      .setPath(SendPath)
      .addSuccess(Html)
      .addError(LinkNotValid)
      .annotate(OpenApi.Description, "A page with an unsubscribe button; opening it changes nothing (link scanners).")
  )
  .add(
    HttpApiEndpoint.post("unsubscribe", `${PublicPaths.unsubscribe}/:send/:signature`)
      .annotate(OpenApi.Summary, "Unsubscribe (one-click)")
      .setPath(SendPath)
      .addSuccess(Html)
      .addSuccess(Redirect(303, "Unsubscribed; on to the list's page for it (when it has one)."))
      .addError(LinkNotValid)
      .annotate(OpenApi.Description, "Unsubscribes (the page's button, or RFC 8058 one-click POST from the mail client).")
      .annotate(OpenApi.Transform, withLocation(303, unsubscribeTarget))
  )
  .add(
    HttpApiEndpoint.get("webview", `${PublicPaths.webview}/:campaign`)
      .annotate(OpenApi.Summary, "Campaign web view")
      .setPath(Schema.Struct({ campaign: Schema.String }))
      .addSuccess(Html)
      .addError(LinkNotValid)
      .annotate(OpenApi.Description, "The campaign as sent, in the browser, with neutral values for the placeholders.")
  )
  .add(
    HttpApiEndpoint.get("webviewPersonal", `${PublicPaths.webview}/:campaign/:send/:signature`)
      .annotate(OpenApi.Summary, "Personal campaign web view")
      .setPath(Schema.Struct({ campaign: Schema.String, send: Schema.String, signature: Schema.String }))
      .addSuccess(Html)
      .addError(LinkNotValid)
      .annotate(OpenApi.Description, "The campaign as its reader got it (the `::webviewUrl::` of a mail).")
  )
  .annotate(OpenApi.Description, "Pages and redirects opened from campaign mails.")
{}
