import { HttpApiBuilder, type HttpServerRequest } from "@effect/platform"
import { type FeedbackProvider, ProviderFeedback } from "@mailroom/core"
import { Effect } from "effect"
import { Api } from "../Api.js"

/** The request as the provider sent it: raw body bytes (signatures cover them), its text, headers and path secret. */
const received = (request: HttpServerRequest.HttpServerRequest, secret: string | null) =>
  // a body over the limit fails the read: the error responses answer it 413
  Effect.map(Effect.orDie(request.arrayBuffer), (buffer) => {
    const body = new Uint8Array(buffer)
    return { body, text: new TextDecoder().decode(body), headers: request.headers, secret }
  })

/** Handlers of the provider feedback webhooks. */
export const FeedbackLive = HttpApiBuilder.group(Api, "providerFeedback", (handlers) =>
  Effect.map(ProviderFeedback, (feedback) => {
    const receive = (provider: FeedbackProvider, request: HttpServerRequest.HttpServerRequest, secret: string | null = null) =>
      Effect.flatMap(received(request, secret), (body) => feedback.receive(provider, body))
    return handlers
      .handle("ses", ({ request }) => receive("ses", request))
      .handle("postmark", ({ request }) => receive("postmark", request))
      .handle("postmarkSecret", ({ path, request }) => receive("postmark", request, path.secret))
      .handle("mailgun", ({ request }) => receive("mailgun", request))
      .handle("sendgrid", ({ request }) => receive("sendgrid", request))
  }))
