import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { PublicPaths } from "@mailroom/core"
import { Schema } from "effect"

const Html = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/html" }))
const Bare = Schema.Struct({ subscriber: Schema.String })
const Signed = Schema.Struct({ subscriber: Schema.String, signature: Schema.String })
const page = "A page with a confirm button; opening it changes nothing, so mail scanners confirm nobody."
const confirm = "Confirms the subscription (the page's button), then redirects to the list's redirect_after_subscribed " +
  "(redirect_after_already_subscribed when it was confirmed already) or shows a page."

/** The public double opt-in link mailed to new subscribers: signed, and only a POST (the page's button) confirms. */
export class ConfirmationGroup extends HttpApiGroup.make("confirmation")
  .add(HttpApiEndpoint.get("confirmPage", `${PublicPaths.confirm}/:subscriber/:signature`).setPath(Signed).addSuccess(Html)
    .annotate(OpenApi.Description, page))
  .add(HttpApiEndpoint.post("confirm", `${PublicPaths.confirm}/:subscriber/:signature`).setPath(Signed).addSuccess(Html)
    .annotate(OpenApi.Description, confirm))
  .add(HttpApiEndpoint.get("confirmPageBare", `${PublicPaths.confirm}/:subscriber`).setPath(Bare).addSuccess(Html)
    .annotate(OpenApi.Description, `${page} (links mailed before they were signed)`))
  .add(HttpApiEndpoint.post("confirmBare", `${PublicPaths.confirm}/:subscriber`).setPath(Bare).addSuccess(Html)
    .annotate(OpenApi.Description, `${confirm} (links mailed before they were signed)`))
  .annotate(OpenApi.Description, "Pages opened from mails.")
{}
