/**
 * Mailroom embedded in a host application, in memory, without HTTP: the use cases are plain Effect services.
 * Run it with `npx tsx --tsconfig tsconfig.check.json examples/embed-in-memory.ts`.
 */
import {
  EmailListInput,
  EmailLists,
  JobWorker,
  Mailroom,
  makeCollectionQuery,
  SubscriberInput,
  Subscribers,
  Suppressions,
  TemplateCollection,
  TemplateInput,
  Templates
} from "@mailroom/core"
import { MemoryMailbox, MemoryMailer, MemoryStorage } from "@mailroom/core/testing"
import { CsvParseReader } from "@mailroom/csv"
import { Effect, Layer, Schema } from "effect"

/** Creates a list, two templates and a suppression, then reads them back; returns a short report. */
export const program = Effect.gen(function*() {
  const templates = yield* Templates
  const lists = yield* EmailLists
  const suppressions = yield* Suppressions
  const subscribers = yield* Subscribers

  // Inputs are validated with the same schemas the HTTP API uses (snake_case on the wire).
  const listInput = yield* Schema.decodeUnknown(EmailListInput)({
    name: "Newsletter",
    default_from_email: "news@example.com",
    requires_confirmation: true
  })
  const list = yield* lists.create(listInput)

  for (const name of ["Welcome", "Monthly digest"]) {
    yield* templates.create(yield* Schema.decodeUnknown(TemplateInput)({ name, html: "<h1>[[[title]]]</h1>[[[content]]]" }))
  }
  const page = yield* templates.list(yield* makeCollectionQuery(TemplateCollection, { sort: "-name" }))

  yield* suppressions.create({ email: "Bounced@Example.com", reason: "hard_bounce" })
  const suppressed = yield* suppressions.isSuppressed("bounced@example.com")

  // Double opt-in: the new subscriber is unconfirmed and a confirmation mail is queued as a durable job.
  const subscriberInput = yield* Schema.decodeUnknown(SubscriberInput)({ email: "Ada@Example.com", tags: ["vip"] })
  const { subscriber } = yield* subscribers.create(list.uuid, subscriberInput)
  yield* Effect.flatMap(JobWorker, (worker) => worker.drain())
  const mails = yield* Effect.flatMap(MemoryMailbox, (mailbox) => mailbox.sent)

  return {
    list: `${list.name} <${list.defaultFromEmail}>`,
    subscriber: `${subscriber.email} [${subscriber.tags.join(", ")}] confirmed: ${subscriber.subscribedAt !== null}`,
    confirmationMails: mails.map((mail) => `${mail.to.email}: ${mail.subject}`),
    templates: page.items.map((t) => t.name),
    total: page.total,
    suppressed
  }
})

/** The whole application: use cases over the in-memory store and mailer. Swap in SqliteStorage and SmtpMailer to go live. */
export const AppLive = Mailroom.pipe(Layer.provideMerge(Layer.mergeAll(MemoryStorage, MemoryMailer, CsvParseReader)))

if (import.meta.url === `file://${process.argv[1]}`) {
  Effect.runPromise(Effect.provide(program, AppLive)).then((report) => console.log(report))
}
