import { formatTimestamp, type ImportRowError, type SubscriberImport } from "@mailroom/core"
import { Schema } from "effect"

/** A subscriber import as the API returns it. */
export const SubscriberImportResource = Schema.Struct({
  id: Schema.Int.annotations({ description: "Used in paths as the import identifier." }),
  uuid: Schema.UUID,
  subscribers_csv: Schema.NullOr(Schema.String).annotations({
    description: "The CSV text while the import is a draft; null once it has started."
  }),
  status: Schema.Literal("draft", "pending", "importing", "completed", "failed"),
  email_list_id: Schema.Int,
  subscribe_unsubscribed: Schema.Boolean,
  unsubscribe_others: Schema.Boolean,
  replace_tags: Schema.Boolean,
  imported_subscribers_count: Schema.NullOr(Schema.Int).annotations({
    description: "Rows processed so far, refused ones included; null until the import begins. Grows while it runs."
  }),
  error_count: Schema.Int.annotations({ description: "Rows refused; GET …/errors lists them with their line." }),
  failure_reason: Schema.NullOr(Schema.String),
  started_at: Schema.NullOr(Schema.String),
  finished_at: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "SubscriberImport" })

/** One refused row of an import. */
export const ImportRowErrorResource = Schema.Struct({
  line: Schema.Int.annotations({ description: "Line of the CSV the row starts on (the header is line 1)." }),
  email: Schema.NullOr(Schema.String),
  reason: Schema.String
}).annotations({ identifier: "SubscriberImportError" })

const time = (date: Date | null) => (date === null ? null : formatTimestamp(date))

/** Renders an import; `csv` is its stored text (null when not a draft, or in lists of finished imports). */
export const toSubscriberImportResource = (subscriberImport: SubscriberImport, csv: string | null): typeof SubscriberImportResource.Type => ({
  id: subscriberImport.id,
  uuid: subscriberImport.uuid,
  subscribers_csv: csv,
  status: subscriberImport.status,
  email_list_id: subscriberImport.emailListId,
  subscribe_unsubscribed: subscriberImport.subscribeUnsubscribed,
  unsubscribe_others: subscriberImport.unsubscribeOthers,
  replace_tags: subscriberImport.replaceTags,
  imported_subscribers_count: subscriberImport.importedSubscribersCount,
  error_count: subscriberImport.errorCount,
  failure_reason: subscriberImport.failureReason,
  started_at: time(subscriberImport.startedAt),
  finished_at: time(subscriberImport.finishedAt),
  created_at: formatTimestamp(subscriberImport.createdAt),
  updated_at: formatTimestamp(subscriberImport.updatedAt)
})

/** Renders a refused row. */
export const toImportRowErrorResource = (error: ImportRowError): typeof ImportRowErrorResource.Type => ({
  line: error.line,
  email: error.email,
  reason: error.reason
})
