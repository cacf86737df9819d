/**
 * Events and webhooks as a library user embeds them: the event stream and durable consumers over the in-memory store,
 * and webhook delivery with a stand-in transport and a test clock (retry schedule, disabling after 3 days of failures).
 */
import { describe, expect, it } from "@effect/vitest"
import {
  CampaignRepository,
  type DomainEvent,
  EmailListInput,
  EmailLists,
  EventConsumers,
  EventOutbox,
  Mailroom,
  MailroomWebhooks,
  SubscriberInput,
  Subscribers,
  WebhookDeliveryRepository,
  WebhookDispatcher,
  WebhookInput,
  WebhookPayloads,
  type WebhookRequest,
  type WebhookResponse,
  Webhooks,
  WebhookSender,
  WebhookTransport,
  WebhookUpdateInput
} from "@mailroom/core"
import { MemoryMailer, MemoryStorage } from "@mailroom/core/testing"
import { Chunk, type Context, Effect, Fiber, Layer, Ref, Schema, Stream, TestClock } from "effect"
import { noCsv } from "./noCsv.js"

const payloads = Layer.succeed(WebhookPayloads, WebhookPayloads.of({
  render: (events) => Effect.succeed(new Map(events.map((event) => [event.id, { subscriber_id: event.subscriberId }])))
}))

/** A transport answering from a script (200 once it is empty), recording what it was asked. */
const scripted = Effect.gen(function*() {
  const sent = yield* Ref.make<ReadonlyArray<WebhookRequest>>([])
  const script = yield* Ref.make<ReadonlyArray<WebhookResponse>>([])
  const layer = Layer.succeed(WebhookTransport, WebhookTransport.of({
    post: (request) =>
      Effect.gen(function*() {
        yield* Ref.update(sent, (all) => [...all, request])
        const [next, ...rest] = yield* Ref.get(script)
        yield* Ref.set(script, rest)
        return next ?? { _tag: "Answered", status: 200, body: "", durationMs: 1 }
      })
  }))
  return { sent, script, layer }
})

/** The embedded stack over `storage` (the in-memory store by default). */
const stack = (
  transport: Layer.Layer<WebhookTransport>,
  storage: Layer.Layer<Layer.Layer.Success<typeof MemoryStorage>> = MemoryStorage
) =>
  Layer.merge(Mailroom, MailroomWebhooks).pipe(
    Layer.provide(payloads),
    Layer.provide(transport),
    Layer.provideMerge(MemoryMailer),
    Layer.provide(storage),
    Layer.provide(noCsv)
  )

/** A transport for tests that send nothing. */
const unusedTransport = Layer.succeed(WebhookTransport, WebhookTransport.of({ post: () => Effect.die("unused") }))

/** The in-memory store with the calls of `method` of `tag`'s service counted: the layer, and the count so far. */
const countingCalls = <I, S>(tag: Context.Tag<I, S>, method: keyof S & string) => {
  let count = 0
  const counted = Layer.effect(
    tag,
    Effect.map(tag, (service) => {
      const original = service[method] as (...args: ReadonlyArray<unknown>) => Effect.Effect<unknown, unknown, unknown>
      return { ...service, [method]: (...args: ReadonlyArray<unknown>) => Effect.suspend(() => (count++, original(...args))) }
    })
  ).pipe(Layer.provideMerge(MemoryStorage))
  return { counted, calls: () => count }
}

const subscribe = (email: string) =>
  Effect.gen(function*() {
    const listInput = yield* Schema.decodeUnknown(EmailListInput)({ name: `News ${email}`, default_from_email: "news@example.com" })
    const list = yield* Effect.flatMap(EmailLists, (l) => l.create(listInput))
    const input = yield* Schema.decodeUnknown(SubscriberInput)({ email })
    return yield* Effect.flatMap(Subscribers, (s) => s.create(list.uuid, input))
  })

describe("events and webhooks (embedded)", () => {
  it.effect("a live stream and a durable consumer see each committed change once, in order", () =>
    Effect.gen(function*() {
      const consumers = yield* EventConsumers
      const live = yield* Effect.fork(Stream.runCollect(Stream.take(consumers.stream({ start: "beginning", idle: "10 millis" }), 1)))
      yield* subscribe("ann@example.com")
      yield* TestClock.adjust("1 second")
      const streamed = Chunk.toReadonlyArray(yield* Fiber.join(live)).map((e) => e.type)
      expect(streamed).toEqual(["subscriber.created"])
      const seen: Array<DomainEvent> = []
      const handler = (events: ReadonlyArray<DomainEvent>) => Effect.sync(() => seen.push(...events))
      yield* consumers.drain("audit", handler, { start: "beginning" })
      yield* consumers.drain("audit", handler, { start: "beginning" })
      expect(seen.map((e) => e.type)).toEqual(["subscriber.created"])
    }).pipe(Effect.provide(stack(unusedTransport))))

  it.effect("a consumer with nothing to do moves past the events recorded so far without handling them; later ones it handles", () =>
    Effect.gen(function*() {
      const consumers = yield* EventConsumers
      const interested = yield* Ref.make(false)
      const seen: Array<string> = []
      const handler = (events: ReadonlyArray<DomainEvent>) => Effect.sync(() => seen.push(...events.map((e) => e.type)))
      const options = { start: "beginning" as const, interested: Ref.get(interested) }
      yield* subscribe("ann@example.com")
      expect(yield* consumers.step("skipper", handler, options)).toBe(0)
      yield* Ref.set(interested, true)
      expect(yield* consumers.step("skipper", handler, options)).toBe(0)
      yield* subscribe("bob@example.com")
      yield* consumers.drain("skipper", handler, options)
      // two subscribers were created; only the one after the consumer became interested was handled
      expect(seen).toEqual(["subscriber.created"])
    }).pipe(Effect.provide(stack(unusedTransport))))

  it.effect("a consumer with nothing to do moves past the events once a second however many commits, and handles them as soon as it has something to do", () =>
    Effect.gen(function*() {
      const { calls: claims, counted } = countingCalls(EventOutbox, "claim")
      const interested = yield* Ref.make(false)
      const seen: Array<number | null> = []
      yield* Effect.gen(function*() {
        const consumers = yield* EventConsumers
        const handler = (events: ReadonlyArray<DomainEvent>) => Effect.sync(() => seen.push(...events.map((e) => e.subscriberId)))
        yield* Effect.forkScoped(consumers.run("idler", handler, { interested: Ref.get(interested) }))
        yield* TestClock.adjust("10 millis")
        for (let i = 0; i < 20; i++) {
          yield* subscribe(`u${i}@example.com`)
          yield* TestClock.adjust("50 millis")
        }
        // two moves in the second of 20 commits; woken by every commit it moved ten times
        expect(claims()).toBeGreaterThanOrEqual(1)
        expect(claims()).toBeLessThanOrEqual(3)
        yield* Ref.set(interested, true)
        const late = yield* subscribe("late@example.com")
        yield* TestClock.adjust("10 millis")
        expect(seen).toContain(late.subscriber.id)
      }).pipe(Effect.provide(stack(unusedTransport, counted)))
    }).pipe(Effect.scoped))

  it.effect("a consumer with nothing to do makes no move while nothing is recorded: an idle minute, no claim", () =>
    Effect.gen(function*() {
      const { calls: claims, counted } = countingCalls(EventOutbox, "claim")
      yield* Effect.gen(function*() {
        const consumers = yield* EventConsumers
        yield* Effect.forkScoped(consumers.run("idler", () => Effect.void, { interested: Effect.succeed(false) }))
        yield* subscribe("ann@example.com")
        yield* TestClock.adjust("3 seconds")
        const afterTheCommit = claims()
        expect(afterTheCommit).toBeGreaterThanOrEqual(1)
        yield* TestClock.adjust("1 minute")
        // it moved past ann's event once; a move a second with nothing new made ~30 more claims
        expect(claims()).toBe(afterTheCommit)
        yield* subscribe("bob@example.com")
        yield* TestClock.adjust("3 seconds")
        expect(claims()).toBe(afterTheCommit + 1)
      }).pipe(Effect.provide(stack(unusedTransport, counted)))
    }).pipe(Effect.scoped))

  it.effect("an idle sender polls with one of its loops: a minute with nothing due makes one loop's claims, not four", () =>
    Effect.gen(function*() {
      const { calls: claims, counted } = countingCalls(WebhookDeliveryRepository, "claim")
      yield* Effect.gen(function*() {
        yield* Effect.forkScoped((yield* WebhookSender).run)
        yield* TestClock.adjust("1 minute")
      }).pipe(Effect.provide(stack(unusedTransport, counted)))
      // one loop backing off from 100 ms to a poll every 2 s claims ~33 times a minute; four loops made ~130
      expect(claims()).toBeGreaterThan(20)
      expect(claims()).toBeLessThan(45)
    }).pipe(Effect.scoped))

  it.effect("the dispatcher and the sender share one look-up a second of whether a campaign is sending", () =>
    Effect.gen(function*() {
      const { calls: lookups, counted } = countingCalls(CampaignRepository, "withStatus")
      yield* Effect.gen(function*() {
        yield* Effect.forkScoped((yield* WebhookSender).run)
        yield* Effect.forkScoped((yield* WebhookDispatcher).run)
        for (let second = 0; second < 60; second++) yield* TestClock.adjust("1 second")
      }).pipe(Effect.provide(stack(unusedTransport, counted)))
      // each polls every 2 s once idle; with a look-up of their own each they made ~60 a minute
      expect(lookups()).toBeGreaterThan(10)
      expect(lookups()).toBeLessThanOrEqual(40)
    }).pipe(Effect.scoped))

  it.effect("a sender loop held by an endpoint that never answers leaves the other loops delivering to the rest", () =>
    Effect.gen(function*() {
      const delivered: Array<string> = []
      // the slow endpoint never answers (its transport's timeout is not in play here); the fast one answers at once
      const transport = Layer.succeed(WebhookTransport, WebhookTransport.of({
        post: (request) =>
          request.url.includes("slow")
            ? Effect.never
            : Effect.sync(() => {
              delivered.push(request.messageId)
              return { _tag: "Answered", status: 200, body: "", durationMs: 1 } as const
            })
      }))
      yield* Effect.gen(function*() {
        const webhooks = yield* Webhooks
        const dispatcher = yield* WebhookDispatcher
        const sender = yield* WebhookSender
        for (const url of ["https://slow.example.com/in", "https://fast.example.com/in"]) {
          yield* webhooks.create(yield* Schema.decodeUnknown(WebhookInput)({ url, events: ["subscriber.created"] }))
        }
        yield* subscribe("dora@example.com")
        yield* dispatcher.drain
        yield* Effect.forkScoped(sender.run)
        yield* TestClock.adjust("1 second")
        // the first claim took both deliveries; the slow one holds that loop, whose group is not recorded
        expect(delivered).toHaveLength(1)
        yield* subscribe("erin@example.com")
        yield* dispatcher.drain
        yield* TestClock.adjust("3 seconds")
        expect(delivered).toHaveLength(2)
        expect(new Set(delivered).size).toBe(2)
      }).pipe(Effect.provide(stack(transport)))
    }).pipe(Effect.scoped))

  it.effect("retries on the schedule and disables a webhook whose deliveries failed for 3 days; a success clears the state", () =>
    Effect.gen(function*() {
      const transport = yield* scripted
      yield* Effect.gen(function*() {
        const webhooks = yield* Webhooks
        const dispatcher = yield* WebhookDispatcher
        const sender = yield* WebhookSender
        const hook = yield* webhooks.create(yield* Schema.decodeUnknown(WebhookInput)({ url: "https://hooks.example.com/in", events: ["subscriber.created"] }))
        const failure: WebhookResponse = { _tag: "Answered", status: 503, body: "down", durationMs: 2 }
        yield* Ref.set(transport.script, Array.from({ length: 20 }, () => failure))
        yield* subscribe("bob@example.com")
        yield* dispatcher.drain
        yield* sender.drain
        const page = { page: 1, perPage: 10, sort: [], filters: {}, includes: [] }
        const [first] = (yield* webhooks.listDeliveries(hook.webhook.uuid, page)).items
        expect(first).toMatchObject({ status: "pending", attempts: 1, responseStatus: 503, error: "The endpoint answered 503." })
        expect((yield* webhooks.get(hook.webhook.uuid)).webhook.failingSince).not.toBeNull()
        // the schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then the delivery fails
        for (const wait of ["5 seconds", "5 minutes", "30 minutes", "2 hours", "5 hours", "10 hours", "10 hours"] as const) {
          yield* TestClock.adjust(wait)
          yield* sender.drain
        }
        const [given] = (yield* webhooks.listDeliveries(hook.webhook.uuid, page)).items
        expect(given).toMatchObject({ status: "failed", attempts: 8, nextAttemptAt: null })
        expect((yield* Ref.get(transport.sent)).map((r) => r.messageId)).toEqual(Array.from({ length: 8 }, () => `evt_${given!.eventId}`))
        expect((yield* webhooks.get(hook.webhook.uuid)).webhook.enabled).toBe(true)
        yield* TestClock.adjust("2 days")
        yield* subscribe("carl@example.com")
        yield* dispatcher.drain
        yield* sender.drain
        const disabled = (yield* webhooks.get(hook.webhook.uuid)).webhook
        expect(disabled.enabled).toBe(false)
        expect(disabled.disabledReason).toMatch(/every delivery failed since .* \(last: The endpoint answered 503\.\)/)
        yield* Ref.set(transport.script, [])
        yield* webhooks.update(hook.webhook.uuid, yield* Schema.decodeUnknown(WebhookUpdateInput)({ enabled: true }))
        const reenabled = (yield* webhooks.get(hook.webhook.uuid)).webhook
        expect(reenabled).toMatchObject({ enabled: true, disabledReason: null, failingSince: null })
        yield* TestClock.adjust("5 seconds")
        yield* sender.drain
        const log = (yield* webhooks.listDeliveries(hook.webhook.uuid, { ...page, sort: [{ field: "created_at", direction: "asc" }] })).items
        expect(log.map((d) => d.status)).toEqual(["failed", "succeeded"])
      }).pipe(Effect.provide(stack(transport.layer)))
    }))
})
