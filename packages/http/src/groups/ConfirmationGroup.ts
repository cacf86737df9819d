import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"

const Html = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/html" }))

/** The public double opt-in link mailed to new subscribers (no token: the unguessable uuid is the credential). */
export class ConfirmationGroup extends HttpApiGroup.make("confirmation")
  .add(
    HttpApiEndpoint.get("confirm", "/confirm/:subscriber")
      .setPath(Schema.Struct({ subscriber: Schema.String }))
      .addSuccess(Html)
      .annotate(
        OpenApi.Description,
        "Confirms the subscription and shows a page, or redirects to the list's redirect_after_subscribed " +
          "(redirect_after_already_subscribed when opened again)."
      )
  )
  .annotate(OpenApi.Description, "Pages opened from mails.")
{}
