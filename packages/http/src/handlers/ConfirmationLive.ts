import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { type ConfirmationOutcome, escapeHtml, type SubscriberStatus, SubscriberActions } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { htmlPage } from "./htmlPage.js"
import { webLocation } from "./webLocation.js"

const messages: Record<ConfirmationOutcome, readonly [string, string]> = {
  "confirmed": ["Subscription confirmed", "Thank you: you are now subscribed to"],
  "already-subscribed": ["Already confirmed", "You were already subscribed to"],
  "unsubscribed": ["Unsubscribed", "You have unsubscribed from"]
}

const invalid = () => Effect.succeed(htmlPage("Link not valid", "<p>This confirmation link is not valid (any more).</p>", 404))

/** A page saying what a confirmation link did, or what the subscription's status is. */
const outcomePage = (listName: string, outcome: ConfirmationOutcome) => {
  const [title, text] = messages[outcome]
  return htmlPage(title, `<p>${text} <strong>${escapeHtml(listName)}</strong>.</p>`)
}

/** The page of a confirmation link: a button for an unconfirmed subscriber, else what the status is. */
const page = (listName: string, status: SubscriberStatus) =>
  status === "unconfirmed"
    ? htmlPage(
      "Confirm your subscription",
      `<p>Please confirm that you want to receive mail from <strong>${escapeHtml(listName)}</strong>.</p>` +
        `<form method="post"><button type="submit">Confirm my subscription</button></form>`
    )
    : outcomePage(listName, status === "subscribed" ? "already-subscribed" : "unsubscribed")

/** Handlers of the public confirmation link: a page with a button (GET, HEAD), and the confirmation itself (POST). */
export const ConfirmationLive = HttpApiBuilder.group(Api, "confirmation", (handlers) =>
  Effect.map(SubscriberActions, (actions) => {
    const show = (subscriber: string, signature: string | null) =>
      actions.confirmationPage(subscriber, signature).pipe(
        Effect.map(({ list, status }) => page(list.name, status)),
        Effect.catchTag("NotFound", invalid)
      )
    const confirm = (subscriber: string, signature: string | null) =>
      actions.confirmByLink(subscriber, signature).pipe(
        Effect.map(({ list, outcome }) => {
          const redirect = webLocation(
            outcome === "confirmed"
              ? list.redirectAfterSubscribed
              : outcome === "already-subscribed"
              ? list.redirectAfterAlreadySubscribed
              : null
          )
          return redirect !== null ? HttpServerResponse.redirect(redirect, { status: 303 }) : outcomePage(list.name, outcome)
        }),
        Effect.catchTag("NotFound", invalid)
      )
    return handlers
      .handle("confirmPage", ({ path }) => show(path.subscriber, path.signature))
      .handle("confirm", ({ path }) => confirm(path.subscriber, path.signature))
      .handle("confirmPageBare", ({ path }) => show(path.subscriber, null))
      .handle("confirmBare", ({ path }) => confirm(path.subscriber, null))
  }))
