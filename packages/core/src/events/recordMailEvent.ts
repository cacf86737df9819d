import { Effect, Option } from "effect"
import type { SubscriberId } from "../domain/Ids.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { EventOutbox } from "./EventOutbox.js"
import { mailEvent, type SendRef } from "./mailEvents.js"
import type { NewEvent } from "./NewEvent.js"

/** Makes a recorder of events about mails (in the caller's transaction), filling in the list of the send's subscriber. */
export const makeMailEventRecorder = Effect.gen(function*() {
  const subscribers = yield* SubscriberRepository
  const outbox = yield* EventOutbox
  return (type: Parameters<typeof mailEvent>[0], send: SendRef, at: Date, data: NewEvent["data"] = null) =>
    Effect.gen(function*() {
      const subscriber = send.subscriberId === null ? Option.none() : yield* subscribers.findById(send.subscriberId as SubscriberId)
      const emailListId = Option.getOrNull(Option.map(subscriber, (s) => s.emailListId as number))
      yield* outbox.append([mailEvent(type, send, emailListId, at, data)])
    })
})
