import { Effect, Option } from "effect"
import type { SuppressionQuery } from "../domain/Collections.js"
import { normalizeEmail } from "../domain/Email.js"
import { newUuid, type SuppressionUuid } from "../domain/Ids.js"
import type { SuppressionInput } from "../domain/SuppressionInput.js"
import { SuppressionRepository } from "../ports/SuppressionRepository.js"
import { orNotFound, parseUuid } from "./lookup.js"
import { now } from "./now.js"

/** Suppressions: addresses never mailed. Addressed by uuid or by the address itself. */
export class Suppressions extends Effect.Service<Suppressions>()("@mailroom/Suppressions", {
  effect: Effect.gen(function*() {
    const repo = yield* SuppressionRepository

    const find = (ref: string) =>
      Option.match(parseUuid(ref), {
        onSome: (uuid) => repo.findByUuid(uuid as SuppressionUuid),
        onNone: () => (ref.includes("@") ? repo.findByEmail(normalizeEmail(ref)) : Effect.succeedNone)
      }).pipe(orNotFound("Suppression"))

    const list = Effect.fn("Suppressions.list")(function*(query: SuppressionQuery) {
      return yield* repo.list(query)
    })

    const get = Effect.fn("Suppressions.get")(function*(ref: string) {
      return yield* find(ref)
    })

    /** Suppresses an address; an address already suppressed is returned unchanged with `created: false`. */
    const create = Effect.fn("Suppressions.create")(function*(input: SuppressionInput) {
      const at = yield* now
      return yield* repo.insertOrGet({
        uuid: newUuid() as SuppressionUuid,
        email: normalizeEmail(input.email),
        reason: input.reason ?? "manual",
        createdAt: at,
        updatedAt: at
      })
    })

    /** True when the address is suppressed (compared case-insensitively). */
    const isSuppressed = Effect.fn("Suppressions.isSuppressed")(function*(email: string) {
      return Option.isSome(yield* repo.findByEmail(normalizeEmail(email)))
    })

    const remove = Effect.fn("Suppressions.remove")(function*(ref: string) {
      const suppression = yield* find(ref)
      yield* repo.delete(suppression.id)
    })

    return { list, get, create, isSuppressed, remove } as const
  })
}) {}
