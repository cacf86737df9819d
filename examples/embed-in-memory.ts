/**
 * Mailroom embedded in a host application, in memory, without HTTP: the use cases are plain Effect services.
 * Run it with `npx tsx --tsconfig tsconfig.check.json examples/embed-in-memory.ts`.
 */
import { EmailListInput, EmailLists, Mailroom, makeCollectionQuery, Suppressions, TemplateCollection, TemplateInput, Templates } from "@mailroom/core"
import { MemoryStorage } from "@mailroom/core/testing"
import { Effect, Layer, Schema } from "effect"

/** Creates a list, two templates and a suppression, then reads them back; returns a short report. */
export const program = Effect.gen(function*() {
  const templates = yield* Templates
  const lists = yield* EmailLists
  const suppressions = yield* Suppressions

  // Inputs are validated with the same schemas the HTTP API uses (snake_case on the wire).
  const listInput = yield* Schema.decodeUnknown(EmailListInput)({ name: "Newsletter", default_from_email: "news@example.com" })
  const list = yield* lists.create(listInput)

  for (const name of ["Welcome", "Monthly digest"]) {
    yield* templates.create(yield* Schema.decodeUnknown(TemplateInput)({ name, html: "<h1>[[[title]]]</h1>[[[content]]]" }))
  }
  const page = yield* templates.list(yield* makeCollectionQuery(TemplateCollection, { sort: "-name" }))

  yield* suppressions.create({ email: "Bounced@Example.com", reason: "hard_bounce" })
  const suppressed = yield* suppressions.isSuppressed("bounced@example.com")

  return {
    list: `${list.name} <${list.defaultFromEmail}>`,
    templates: page.items.map((t) => t.name),
    total: page.total,
    suppressed
  }
})

/** The whole application: use cases over the in-memory store. Swap MemoryStorage for SqliteStorage to persist. */
export const AppLive = Mailroom.pipe(Layer.provide(MemoryStorage))

if (import.meta.url === `file://${process.argv[1]}`) {
  Effect.runPromise(Effect.provide(program, AppLive)).then((report) => console.log(report))
}
