import { Schema } from "effect"
import { EmailListId, SubscriberImportId, SubscriberImportUuid } from "./Ids.js"
import { ImportStatus } from "./ImportStatus.js"
import { Timestamp } from "./Timestamp.js"

/**
 * A bulk import of subscribers from CSV text into one list. The CSV is stored in appended parts while the import is a
 * draft and dropped once it has run; `processedRows` is the worker's resume point (data rows already written, in the
 * order `windowRows` gives).
 */
export class SubscriberImport extends Schema.Class<SubscriberImport>("SubscriberImport")({
  id: SubscriberImportId,
  uuid: SubscriberImportUuid,
  emailListId: EmailListId,
  status: ImportStatus,
  subscribeUnsubscribed: Schema.Boolean,
  unsubscribeOthers: Schema.Boolean,
  replaceTags: Schema.Boolean,
  /** Rows processed so far (errors included); null until the import begins. */
  importedSubscribersCount: Schema.NullOr(Schema.Int),
  errorCount: Schema.Int,
  processedRows: Schema.Int,
  /**
   * Data rows the worker reads, sorts by address and then writes, chosen when the import begins (so a restart resumes
   * with the same windows); 0 writes them in the CSV's order.
   */
  windowRows: Schema.Int,
  /** Size of the stored CSV text in UTF-16 code units (0 once the import has run). */
  csvLength: Schema.Int,
  failureReason: Schema.NullOr(Schema.String),
  lockedUntil: Schema.NullOr(Timestamp),
  startedAt: Schema.NullOr(Timestamp),
  finishedAt: Schema.NullOr(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {}

/** One row an import could not take, with its line in the CSV. */
export class ImportRowError extends Schema.Class<ImportRowError>("ImportRowError")({
  line: Schema.Int,
  email: Schema.NullOr(Schema.String),
  reason: Schema.String
}) {}
