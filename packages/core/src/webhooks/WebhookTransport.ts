import { Context, type Effect } from "effect"

/** A signed request to a webhook endpoint. */
export interface WebhookRequest {
  readonly url: string
  /** The Standard Webhooks message id (the event's public id: the same on every attempt). */
  readonly messageId: string
  readonly timestamp: Date
  readonly body: string
  readonly secret: string
}

/** What the endpoint answered (any status), or why there was no answer. */
export type WebhookResponse =
  | { readonly _tag: "Answered"; readonly status: number; readonly body: string; readonly durationMs: number }
  | { readonly _tag: "NoAnswer"; readonly error: string; readonly durationMs: number }

/**
 * Posts a webhook request signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`), with
 * a timeout and a cap on the response read. Never fails: a timeout or a refused connection is a `NoAnswer`.
 */
export class WebhookTransport extends Context.Tag("@mailroom/WebhookTransport")<WebhookTransport, {
  readonly post: (request: WebhookRequest) => Effect.Effect<WebhookResponse>
}>() {}
