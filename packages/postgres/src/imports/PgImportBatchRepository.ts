import type { SqlClient } from "@effect/sql"
import type { ImportBatchRepository } from "@mailroom/core"
import {
  dataTexts,
  EVENT_COLUMNS,
  eventValues,
  type ExistingSubscriberRow,
  IMPORTED_COLUMNS,
  type ImportBulkWrites,
  importBatchRepository,
  type InsertValue,
  NEW_SUBSCRIBER_COLUMNS
} from "@mailroom/sql"
import { Effect, type Layer } from "effect"
import { copyRows } from "./copyRows.js"
import { transactionClient } from "./transactionClient.js"

/**
 * The bulk statements of an import batch on Postgres: one look-up with an array parameter, and COPY into the batch's
 * transaction for everything that grows with the batch. New subscribers take ids drawn from their sequence beforehand
 * and are copied straight into `subscribers` (so their tag links and events are copied too, without RETURNING);
 * changed ones are copied into a temporary table dropped at commit and merged with one UPDATE.
 */
const pgImportBulkWrites = (sql: SqlClient.SqlClient): ImportBulkWrites => ({
  existing: (emailListId, emails) =>
    emails.length === 0 ? Effect.succeed([]) : sql<ExistingSubscriberRow>`SELECT id, email, first_name, last_name, extra_attributes,
      subscribed_at, unsubscribed_at, last_import_id FROM subscribers WHERE email_list_id = ${emailListId} AND email = ANY(${emails}::text[])`,
  update: (rows) =>
    rows.length === 0 ? Effect.void : Effect.gen(function*() {
      yield* sql`CREATE TEMP TABLE import_updates (id INTEGER, first_name TEXT, last_name TEXT, extra_attributes TEXT,
        search_key TEXT, status TEXT, subscribed_at TEXT, unsubscribed_at TEXT, updated_at TEXT, last_import_id INTEGER) ON COMMIT DROP`
      yield* copyRows(
        yield* transactionClient,
        "import_updates",
        ["id", ...IMPORTED_COLUMNS],
        { length: rows.length, row: (i) => [rows[i]!.id, ...rows[i]!.values] }
      )
      yield* sql`UPDATE subscribers s SET ${sql.literal(IMPORTED_COLUMNS.map((column) => `${column} = u.${column}`).join(", "))}
        FROM import_updates u WHERE s.id = u.id`
      yield* sql`DROP TABLE import_updates`
    }),
  insert: (rows) =>
    rows.length === 0 ? Effect.succeed([]) : Effect.gen(function*() {
      // the sequence is looked up once (an InitPlan), not once a row: 8 ms instead of 42 for 10,000 ids
      const drawn = yield* sql<{ readonly id: string }>`SELECT nextval((SELECT pg_get_serial_sequence('subscribers', 'id'))::regclass) AS id
        FROM generate_series(1, ${rows.length})`
      const ids = drawn.map((row) => Number(row.id)).sort((a, b) => a - b)
      yield* copyRows(
        yield* transactionClient,
        "subscribers",
        ["id", ...NEW_SUBSCRIBER_COLUMNS],
        {
          length: rows.length,
          row: (i) => {
            const values = new Array<InsertValue>(1 + NEW_SUBSCRIBER_COLUMNS.length)
            values[0] = ids[i]!
            rows.write(i, values, 1)
            return values
          }
        }
      )
      return ids
    }),
  link: (links) =>
    Effect.flatMap(transactionClient, (client) =>
      copyRows(client, "subscriber_tags", ["subscriber_id", "tag_id"], { length: links.length, row: (i) => [links[i]!.subscriberId, links[i]!.tagId] })),
  record: (events) =>
    Effect.flatMap(transactionClient, (client) => {
      const dataText = dataTexts()
      return copyRows(client, "events", EVENT_COLUMNS, { length: events.length, row: (i) => eventValues(events[i]!, dataText) })
    })
})

/** ImportBatchRepository on Postgres: the portable batch with its bulk statements run through COPY. */
export const PgImportBatchRepository: Layer.Layer<ImportBatchRepository, never, SqlClient.SqlClient> = importBatchRepository(pgImportBulkWrites)
