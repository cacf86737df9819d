import {
  CampaignRepository,
  type DomainEvent,
  EmailListRepository,
  type ListedSend,
  SegmentRepository,
  SendRepository,
  SubscriberImportRepository,
  SubscriberRepository,
  TemplateRepository,
  TransactionalMailRepository,
  WebhookPayloads
} from "@mailroom/core"
import { Effect, Layer, Option } from "effect"
import { toCampaignResource } from "../resources/CampaignResource.js"
import { toSendResource } from "../resources/SendResource.js"
import { toSubscriberImportResource } from "../resources/SubscriberImportResource.js"
import { toSubscriberResource } from "../resources/SubscriberResource.js"
import { toTransactionalMailResource } from "../transactional/TransactionalMailResource.js"

/** Looks each key up once per batch. */
const memo = <K, A>(lookup: (key: K) => Effect.Effect<A>) => {
  const seen = new Map<K, A>()
  return (key: K) =>
    seen.has(key) ? Effect.succeed(seen.get(key)!) : Effect.tap(lookup(key), (value) => Effect.sync(() => seen.set(key, value)))
}

/**
 * Webhook payloads as the API shows the resources: the subscriber (with `tag` for tag events), the campaign, the
 * send (with the event's facts: `url`, `bounce_type`, `first`), the import or the transactional mail. What no longer
 * exists is described by the event itself (a deleted subscriber by what it was).
 */
export const WebhookPayloadsLive = Layer.effect(
  WebhookPayloads,
  Effect.gen(function*() {
    const subscribers = yield* SubscriberRepository
    const lists = yield* EmailListRepository
    const campaigns = yield* CampaignRepository
    const templates = yield* TemplateRepository
    const segments = yield* SegmentRepository
    const sends = yield* SendRepository
    const imports = yield* SubscriberImportRepository
    const transactional = yield* TransactionalMailRepository

    return WebhookPayloads.of({
      render: (events) =>
        Effect.gen(function*() {
          const list = memo((id: number) => lists.findById(id as never))
          const listUuid = (id: number | null) =>
            id === null ? Effect.succeed(null) : Effect.map(list(id), (found) => Option.getOrNull(Option.map(found, (l) => l.uuid as string)))
          const subscriber = memo((id: number) =>
            Effect.gen(function*() {
              const found = yield* subscribers.findById(id as never)
              if (Option.isNone(found)) return null
              const owner = yield* list(found.value.emailListId)
              return Option.isNone(owner) ? null : toSubscriberResource(owner.value)(found.value)
            }))
          const campaign = memo((id: number) =>
            Effect.gen(function*() {
              const found = yield* campaigns.findById(id as never)
              if (Option.isNone(found)) return null
              const c = found.value
              const template = c.templateId === null ? Option.none() : yield* templates.findById(c.templateId)
              const segment = c.segmentId === null ? Option.none() : yield* segments.findById(c.segmentId)
              return toCampaignResource(c, {
                emailListUuid: yield* listUuid(c.emailListId),
                templateUuid: Option.getOrNull(Option.map(template, (t) => t.uuid as string)),
                segmentUuid: Option.getOrNull(Option.map(segment, (s) => s.uuid as string))
              })
            }))
          const sendIds = [...new Set(events.flatMap((event) => (event.sendId === null ? [] : [event.sendId])))]
          const sent = new Map<number, ListedSend>()
          for (let at = 0; at < sendIds.length; at += 500) {
            for (const listed of yield* sends.findByIds(sendIds.slice(at, at + 500) as never)) sent.set(listed.send.id, listed)
          }

          const dataOf = (event: DomainEvent) =>
            Effect.gen(function*(): Effect.fn.Return<unknown> {
              const facts = event.data ?? {}
              switch (event.type) {
                case "subscriber.deleted":
                  return { ...facts, email_list_uuid: yield* listUuid(event.emailListId) }
                case "subscriber.created":
                case "subscriber.confirmed":
                case "subscriber.unsubscribed":
                case "subscriber.resubscribed":
                case "tag.added":
                case "tag.removed": {
                  const found = event.subscriberId === null ? null : yield* subscriber(event.subscriberId)
                  const { status: _status, ...rest } = facts
                  return { ...(found ?? { uuid: null, email_list_uuid: yield* listUuid(event.emailListId) }), ...rest }
                }
                case "campaign.sending":
                case "campaign.sent":
                  return event.campaignId === null ? null : yield* campaign(event.campaignId)
                case "import.completed": {
                  const found = event.refId === null ? Option.none() : yield* imports.findById(event.refId as never)
                  return Option.match(found, { onNone: () => null, onSome: (i) => toSubscriberImportResource(i, null) })
                }
                case "transactional_mail.sent": {
                  const mail = event.refId === null ? Option.none() : yield* transactional.findById(event.refId as never)
                  const logged = Option.isNone(mail) ? Option.none() : yield* transactional.findByUuid(mail.value.uuid)
                  const send = event.sendId === null ? undefined : sent.get(event.sendId)
                  return Option.match(logged, {
                    onNone: () => ({ uuid: null, send: send === undefined ? null : toSendResource(send) }),
                    onSome: toTransactionalMailResource
                  })
                }
                default: {
                  const send = event.sendId === null ? undefined : sent.get(event.sendId)
                  return { ...(send === undefined ? {} : toSendResource(send)), ...facts }
                }
              }
            })

          const out = new Map<number, unknown>()
          for (const event of events) out.set(event.id, yield* dataOf(event))
          return out
        })
    })
  })
)
