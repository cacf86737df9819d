import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { PublicPaths } from "@mailroom/core"
import { Schema } from "effect"

const Html = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/html" }))
const SendPath = Schema.Struct({ send: Schema.String, signature: Schema.String })

/** Public links inside campaign mails: open pixel, click redirect, unsubscribe page and one-click unsubscribe, web view. */
export class TrackingGroup extends HttpApiGroup.make("tracking")
  .add(
    HttpApiEndpoint.get("open", `${PublicPaths.open}/:send/:signature`)
      .setPath(SendPath)
      .addSuccess(Html)
      .annotate(OpenApi.Description, "A 1×1 transparent GIF; counts an open of the send.")
  )
  .add(
    HttpApiEndpoint.get("click", `${PublicPaths.click}/:send/:link/:signature`)
      .setPath(Schema.Struct({ send: Schema.String, link: Schema.String, signature: Schema.String }))
      .addSuccess(Html)
      .annotate(OpenApi.Description, "Counts a click and redirects (302) to the link's address.")
  )
  .add(
    HttpApiEndpoint.get("unsubscribePage", `${PublicPaths.unsubscribe}/:send/:signature`)
      .setPath(SendPath)
      .addSuccess(Html)
      .annotate(OpenApi.Description, "A page with an unsubscribe button; opening it changes nothing (link scanners).")
  )
  .add(
    HttpApiEndpoint.post("unsubscribe", `${PublicPaths.unsubscribe}/:send/:signature`)
      .setPath(SendPath)
      .addSuccess(Html)
      .annotate(OpenApi.Description, "Unsubscribes (the page's button, or RFC 8058 one-click POST from the mail client).")
  )
  .add(
    HttpApiEndpoint.get("webview", `${PublicPaths.webview}/:campaign`)
      .setPath(Schema.Struct({ campaign: Schema.String }))
      .addSuccess(Html)
      .annotate(OpenApi.Description, "The campaign as sent, in the browser, with neutral values for the placeholders.")
  )
  .add(
    HttpApiEndpoint.get("webviewPersonal", `${PublicPaths.webview}/:campaign/:send/:signature`)
      .setPath(Schema.Struct({ campaign: Schema.String, send: Schema.String, signature: Schema.String }))
      .addSuccess(Html)
      .annotate(OpenApi.Description, "The campaign as its reader got it (the `::webviewUrl::` of a mail).")
  )
  .annotate(OpenApi.Description, "Pages and redirects opened from campaign mails.")
{}
