import { Context, type Effect } from "effect"
import type { DomainEvent } from "../events/DomainEvent.js"

/**
 * The `data` of each event's webhook body: the resource the event is about as the API shows it, with the event's own
 * facts (a tag's name, a clicked url, a bounce type). Provided by the HTTP adapter, which owns the resources' shapes.
 */
export class WebhookPayloads extends Context.Tag("@mailroom/WebhookPayloads")<WebhookPayloads, {
  readonly render: (events: ReadonlyArray<DomainEvent>) => Effect.Effect<ReadonlyMap<number, unknown>>
}>() {}
