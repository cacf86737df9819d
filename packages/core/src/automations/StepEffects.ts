import { Effect, Option } from "effect"
import { newUuid, type SendUuid, type SubscriberId } from "../domain/Ids.js"
import { SubscriberInput } from "../domain/SubscriberInput.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { SubscriberActions } from "../usecases/SubscriberActions.js"
import { Subscribers } from "../usecases/Subscribers.js"
import { SubscriberTags } from "../usecases/SubscriberTags.js"
import type { AutomationMailUuid } from "./AutomationIds.js"
import { AutomationMailRepository } from "./AutomationMailRepository.js"
import type { StepEffect } from "./stepPlan.js"

/**
 * Does the writes of automation steps, in the caller's transaction: queues the mails of `send_mail` steps in one
 * statement (unique per run and mail), and changes tags, unsubscribes or subscribes to another list through the same
 * use cases the API uses (so their events are recorded alike). A step whose mail or list is gone does nothing.
 */
export class StepEffects extends Effect.Service<StepEffects>()("@mailroom/StepEffects", {
  effect: Effect.gen(function*() {
    const mails = yield* AutomationMailRepository
    const subscribers = yield* SubscriberRepository
    const lists = yield* EmailListRepository
    const tagging = yield* SubscriberTags
    const actions = yield* SubscriberActions
    const subscribing = yield* Subscribers

    /** Changes a subscriber's tags by name. */
    const retag = (subscriberId: SubscriberId, tags: ReadonlyArray<string>, mode: "add" | "remove") =>
      Effect.gen(function*() {
        const subscriber = yield* subscribers.findById(subscriberId)
        if (Option.isNone(subscriber)) return
        const list = yield* lists.findById(subscriber.value.emailListId)
        if (Option.isSome(list)) yield* tagging.sync(list.value, subscriber.value, tags, mode)
      })

    /** Subscribes the subscriber's address (and names and attributes) to another list with tags. */
    const subscribeTo = (subscriberId: SubscriberId, listUuid: string, tags: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const subscriber = yield* subscribers.findById(subscriberId)
        if (Option.isNone(subscriber)) return
        const { email, extraAttributes, firstName, lastName } = subscriber.value
        yield* subscribing.create(listUuid, SubscriberInput.make({ email, firstName, lastName, extraAttributes, tags: [...tags] })).pipe(
          Effect.catchAll((error) => Effect.logWarning(`An automation could not subscribe ${subscriber.value.uuid} to list ${listUuid}: ${error.message}`))
        )
      })

    /** Applies the effects of a batch of steps; how many mails it queued. */
    const apply = (effects: ReadonlyArray<StepEffect>, at: Date) =>
      Effect.gen(function*() {
        const sends = effects.flatMap((effect) => (effect._tag === "SendMail" ? [effect] : []))
        let queued = 0
        if (sends.length > 0) {
          const ids = new Map<string, number>()
          for (const uuid of new Set(sends.map((send) => send.mailUuid))) {
            const mail = yield* mails.findByUuid(uuid as AutomationMailUuid)
            if (Option.isSome(mail)) ids.set(uuid, mail.value.id)
          }
          const rows = sends.flatMap((send) => {
            const mailId = ids.get(send.mailUuid)
            return mailId === undefined
              ? []
              : [{ uuid: newUuid() as SendUuid, mailId: mailId as never, runId: send.runId, subscriberId: send.subscriberId, email: send.email }]
          })
          if (rows.length > 0) queued = yield* mails.queueSends(rows, at)
        }
        // the effects that write a list's row (unsubscribing, subscribing) before those that move tags' counts, as
        // every other writer takes them; each kind keeps its runs' order
        const takesList = (effect: StepEffect) => effect._tag === "Unsubscribe" || effect._tag === "SubscribeToList"
        for (const effect of [...effects.filter(takesList), ...effects.filter((effect) => !takesList(effect))]) {
          switch (effect._tag) {
            case "AddTags":
              yield* retag(effect.subscriberId, effect.tags, "add")
              break
            case "RemoveTags":
              yield* retag(effect.subscriberId, effect.tags, "remove")
              break
            case "Unsubscribe": {
              const subscriber = yield* subscribers.findById(effect.subscriberId)
              if (Option.isSome(subscriber)) yield* Effect.ignore(actions.perform("unsubscribe", subscriber.value.uuid))
              break
            }
            case "SubscribeToList":
              yield* subscribeTo(effect.subscriberId, effect.emailListUuid, effect.tags)
              break
          }
        }
        return queued
      })

    return { apply } as const
  })
}) {}
