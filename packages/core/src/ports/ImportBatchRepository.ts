import { Context, type Effect, type Option } from "effect"
import type { EmailListId, SubscriberImportId } from "../domain/Ids.js"
import type { ImportRules } from "../domain/ImportDecision.js"
import type { ImportRow, RejectedRow } from "../domain/ImportRow.js"

/** One batch of an import's data rows, with the progress it moves the import from and to. */
export interface ImportBatch {
  readonly importId: SubscriberImportId
  readonly emailListId: EmailListId
  readonly rules: ImportRules
  /** Valid rows in CSV order (decided with `decideImport` against the list as it is now). */
  readonly rows: ReadonlyArray<ImportRow>
  /** Rows refused before reaching the store (invalid address or date). */
  readonly rejected: ReadonlyArray<RejectedRow>
  /** The import's `processedRows` this batch follows; the write is refused when the import is elsewhere. */
  readonly processedBefore: number
  readonly processedAfter: number
  /** The import's lease is renewed to this time with every batch. */
  readonly leaseUntil: Date
  readonly at: Date
}

/**
 * The import's write path. `write` applies a batch in one go: subscribers inserted or updated per `decideImport`,
 * tags attached (created as needed), the list's and tags' counters adjusted, refused rows stored, and the import's
 * progress, counts and lease moved. A crash between batches therefore resumes exactly at `processedRows`.
 */
export class ImportBatchRepository extends Context.Tag("@mailroom/ImportBatchRepository")<ImportBatchRepository, {
  /** Writes the batch; the number of refused rows, or none when the import is not importing at `processedBefore`. */
  readonly write: (batch: ImportBatch) => Effect.Effect<Option.Option<{ readonly rejected: number }>>
  /** Unsubscribes the list's subscribed members that this import did not write; how many. */
  readonly unsubscribeOthers: (importId: SubscriberImportId, emailListId: EmailListId, at: Date) => Effect.Effect<number>
}>() {}
