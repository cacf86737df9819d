import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { PublicPaths } from "@mailroom/core"
import { Schema } from "effect"
import { Html, LinkNotValid, Redirect, withLocation } from "./publicLinkResponses.js"

const Bare = Schema.Struct({ subscriber: Schema.String })
const Signed = Schema.Struct({ subscriber: Schema.String, signature: Schema.String })
const page = "A page with a confirm button; opening it changes nothing, so mail scanners confirm nobody."
const confirm = "Confirms the subscription (the page's button), then redirects to the list's redirect_after_subscribed " +
  "(redirect_after_already_subscribed when it was confirmed already) or shows a page."
const unsigned = " (links mailed before they were signed)"
const target = "The list's redirect_after_subscribed (or redirect_after_already_subscribed) page."

const showPage = <const Name extends string, const Path extends `/${string}`>(name: Name, path: Path, summary: string) =>
  HttpApiEndpoint.get(name, path).annotate(OpenApi.Summary, summary).addSuccess(Html).addError(LinkNotValid)

const confirmLink = <const Name extends string, const Path extends `/${string}`>(name: Name, path: Path, summary: string) =>
  HttpApiEndpoint.post(name, path)
    .annotate(OpenApi.Summary, summary)
    .addSuccess(Html)
    .addSuccess(Redirect(303, "Confirmed; on to the list's page for it (when it has one)."))
    .addError(LinkNotValid)
    .annotate(OpenApi.Transform, withLocation(303, target))

/** The public double opt-in link mailed to new subscribers: signed, and only a POST (the page's button) confirms. */
export class ConfirmationGroup extends HttpApiGroup.make("confirmation")
  .add(
    showPage("confirmPage", `${PublicPaths.confirm}/:subscriber/:signature`, "Confirmation page")
      .setPath(Signed)
      .annotate(OpenApi.Description, page)
  )
  .add(
    confirmLink("confirm", `${PublicPaths.confirm}/:subscriber/:signature`, "Confirm a subscription")
      .setPath(Signed)
      .annotate(OpenApi.Description, confirm)
  )
  .add(
    showPage("confirmPageBare", `${PublicPaths.confirm}/:subscriber`, "Confirmation page (unsigned link)")
      .setPath(Bare)
      .annotate(OpenApi.Description, `${page}${unsigned}`)
  )
  .add(
    confirmLink("confirmBare", `${PublicPaths.confirm}/:subscriber`, "Confirm a subscription (unsigned link)")
      .setPath(Bare)
      .annotate(OpenApi.Description, `${confirm}${unsigned}`)
  )
  .annotate(OpenApi.Description, "Pages opened from mails.")
{}
