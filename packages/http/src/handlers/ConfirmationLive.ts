import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { type ConfirmationOutcome, escapeHtml, SubscriberActions } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { htmlPage } from "./htmlPage.js"

const messages: Record<ConfirmationOutcome, readonly [string, string]> = {
  "confirmed": ["Subscription confirmed", "Thank you: you are now subscribed to"],
  "already-subscribed": ["Already confirmed", "You were already subscribed to"],
  "unsubscribed": ["Unsubscribed", "You have unsubscribed from"]
}

/** Handler of the public confirmation link: a friendly page, or the list's redirect when it has one. */
export const ConfirmationLive = HttpApiBuilder.group(Api, "confirmation", (handlers) =>
  Effect.map(SubscriberActions, (actions) =>
    handlers.handle("confirm", ({ path }) =>
      actions.confirmByLink(path.subscriber).pipe(
        Effect.map(({ list, outcome }) => {
          const redirect = outcome === "confirmed"
            ? list.redirectAfterSubscribed
            : outcome === "already-subscribed"
            ? list.redirectAfterAlreadySubscribed
            : null
          if (redirect) return HttpServerResponse.redirect(redirect, { status: 302 })
          const [title, text] = messages[outcome]
          return htmlPage(title, `<p>${text} <strong>${escapeHtml(list.name)}</strong>.</p>`)
        }),
        Effect.catchTag("NotFound", () =>
          Effect.succeed(htmlPage("Link not valid", "<p>This confirmation link is not valid (any more).</p>", 404)))
      )
    )))
