import { Effect, Option } from "effect"
import type { SendQuery } from "../domain/Collections.js"
import type { SendUuid } from "../domain/Ids.js"
import { SendRepository } from "../ports/SendRepository.js"
import { orNotFound, parseUuid } from "./lookup.js"

/** Sends: the per-recipient log of campaign mails (list with filters, read, delete). */
export class Sends extends Effect.Service<Sends>()("@mailroom/Sends", {
  effect: Effect.gen(function*() {
    const repo = yield* SendRepository

    const find = (ref: string) =>
      Option.match(parseUuid(ref), {
        onNone: () => Effect.succeedNone,
        onSome: (uuid) => repo.findByUuid(uuid as SendUuid)
      }).pipe(orNotFound("Send"))

    const list = Effect.fn("Sends.list")(function*(query: SendQuery) {
      return yield* repo.list(query)
    })

    const get = Effect.fn("Sends.get")(function*(ref: string) {
      return yield* find(ref)
    })

    const remove = Effect.fn("Sends.remove")(function*(ref: string) {
      const { send } = yield* find(ref)
      yield* repo.delete(send.id)
    })

    return { list, get, remove } as const
  })
}) {}
