import { Context, type Effect, type Option } from "effect"
import type { Page } from "../domain/CollectionQuery.js"
import type { SuppressionQuery } from "../domain/Collections.js"
import type { SuppressionId, SuppressionUuid } from "../domain/Ids.js"
import type { Suppression } from "../domain/Suppression.js"

/** A suppression before the store has given it an id. */
export type NewSuppression = Omit<Suppression, "id">

/** Storage of suppressions; at most one per (lower-cased) address. */
export class SuppressionRepository extends Context.Tag("@mailroom/SuppressionRepository")<SuppressionRepository, {
  /** Inserts unless the address is already suppressed; returns the stored record and whether it is new. */
  readonly insertOrGet: (
    suppression: NewSuppression
  ) => Effect.Effect<{ readonly suppression: Suppression; readonly created: boolean }>
  readonly findByUuid: (uuid: SuppressionUuid) => Effect.Effect<Option.Option<Suppression>>
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<Suppression>>
  /** Which of these (normalized) addresses are suppressed. */
  readonly suppressedAmong: (emails: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>>
  readonly delete: (id: SuppressionId) => Effect.Effect<boolean>
  readonly list: (query: SuppressionQuery) => Effect.Effect<Page<Suppression>>
}>() {}
