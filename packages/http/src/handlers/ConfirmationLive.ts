import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { type ConfirmationOutcome, SubscriberActions } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!)

const page = (title: string, body: string, status = 200) =>
  HttpServerResponse.text(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
      `<title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;max-width:32rem;margin:4rem auto">` +
      `<h1>${escapeHtml(title)}</h1><p>${body}</p></body></html>`,
    { status, contentType: "text/html; charset=utf-8" }
  )

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
          return page(title, `${text} <strong>${escapeHtml(list.name)}</strong>.`)
        }),
        Effect.catchTag("NotFound", () =>
          Effect.succeed(page("Link not valid", "This confirmation link is not valid (any more).", 404)))
      )
    )))
