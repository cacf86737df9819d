import { Context, type Effect, type Option } from "effect"
import type { ImportRowErrorQuery, SubscriberImportQuery } from "../domain/Collections.js"
import type { Page } from "../domain/CollectionQuery.js"
import type { EmailListId, SubscriberImportId, SubscriberImportUuid } from "../domain/Ids.js"
import type { ImportStatus } from "../domain/ImportStatus.js"
import type { ImportRowError, SubscriberImport } from "../domain/SubscriberImport.js"

/** An import before the store has given it an id (its CSV length follows from the CSV stored with it). */
export type NewSubscriberImport = Omit<SubscriberImport, "id" | "csvLength">

/** The settings a client may change while the import is a draft. */
export interface ImportSettings {
  readonly emailListId: EmailListId
  readonly subscribeUnsubscribed: boolean
  readonly unsubscribeOthers: boolean
  readonly replaceTags: boolean
  readonly updatedAt: Date
}

/** Fields the worker sets as an import moves on. */
export type ImportProgress = Partial<
  Pick<
    SubscriberImport,
    "importedSubscribersCount" | "errorCount" | "processedRows" | "windowRows" | "failureReason" | "lockedUntil" | "startedAt" | "finishedAt" | "updatedAt"
  >
>

/** One stored part of an import's CSV text; parts are numbered from 1 in the order they arrived. */
export interface CsvPart {
  readonly seq: number
  readonly text: string
}

/**
 * Storage of subscriber imports and their CSV, kept as appended parts so that a large file arriving in many
 * requests is never rewritten. Edits apply only to drafts; status moves are conditional on the current status.
 */
export class SubscriberImportRepository extends Context.Tag("@mailroom/SubscriberImportRepository")<SubscriberImportRepository, {
  /** Inserts the import with `csv` as its first part. */
  readonly insert: (subscriberImport: NewSubscriberImport, csv: string) => Effect.Effect<SubscriberImport>
  readonly findById: (id: SubscriberImportId) => Effect.Effect<Option.Option<SubscriberImport>>
  readonly findByUuid: (uuid: SubscriberImportUuid) => Effect.Effect<Option.Option<SubscriberImport>>
  /** Replaces a draft's settings and CSV; none when there is no such draft. */
  readonly replace: (id: SubscriberImportId, settings: ImportSettings, csv: string) => Effect.Effect<Option.Option<SubscriberImport>>
  /** Adds `csv` after a draft's stored text; none when there is no such draft. */
  readonly append: (id: SubscriberImportId, csv: string, at: Date) => Effect.Effect<Option.Option<SubscriberImport>>
  /** Up to `limit` CSV parts after part `afterSeq`, in order. */
  readonly csvParts: (id: SubscriberImportId, afterSeq: number, limit: number) => Effect.Effect<ReadonlyArray<CsvPart>>
  /** Forgets the CSV text (once it has been imported). */
  readonly dropCsv: (id: SubscriberImportId) => Effect.Effect<void>
  /** Deletes the import with its CSV and refused rows. */
  readonly delete: (id: SubscriberImportId) => Effect.Effect<boolean>
  readonly list: (query: SubscriberImportQuery) => Effect.Effect<Page<SubscriberImport>>
  /** Moves the import to `to` with `changes` if its status is one of `from`; the moved import or none. */
  readonly transition: (
    id: SubscriberImportId,
    from: ReadonlyArray<ImportStatus>,
    to: ImportStatus,
    changes: ImportProgress
  ) => Effect.Effect<Option.Option<SubscriberImport>>
  /** Leases one pending or importing import whose lease has run out (oldest first) until `leaseUntil`. */
  readonly claim: (now: Date, leaseUntil: Date) => Effect.Effect<Option.Option<SubscriberImport>>
  readonly errors: (id: SubscriberImportId, query: ImportRowErrorQuery) => Effect.Effect<Page<ImportRowError>>
}>() {}
