import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { type ColumnTypes, pgTypes, sqliteTypes } from "../columns.js"

const statements = ({ bool, pk }: ColumnTypes): ReadonlyArray<string> => [
  `ALTER TABLE subscribers ADD COLUMN last_import_id INTEGER`,
  `CREATE TABLE subscriber_imports (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    email_list_id INTEGER NOT NULL,
    status TEXT NOT NULL,
    subscribe_unsubscribed ${bool} NOT NULL,
    unsubscribe_others ${bool} NOT NULL,
    replace_tags ${bool} NOT NULL,
    imported_subscribers_count INTEGER,
    error_count INTEGER NOT NULL DEFAULT 0,
    processed_rows INTEGER NOT NULL DEFAULT 0,
    csv_length INTEGER NOT NULL DEFAULT 0,
    failure_reason TEXT,
    locked_until TEXT,
    started_at TEXT,
    finished_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX subscriber_imports_created ON subscriber_imports (created_at, id)`,
  `CREATE INDEX subscriber_imports_waiting ON subscriber_imports (id) WHERE status IN ('pending', 'importing')`,
  `CREATE TABLE subscriber_import_parts (
    import_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    csv TEXT NOT NULL,
    PRIMARY KEY (import_id, seq)
  )`,
  `CREATE TABLE subscriber_import_errors (
    id ${pk},
    import_id INTEGER NOT NULL,
    line INTEGER NOT NULL,
    email TEXT,
    reason TEXT NOT NULL
  )`,
  `CREATE INDEX subscriber_import_errors_import ON subscriber_import_errors (import_id, line, id)`
]

/** Subscriber imports: the import rows, their CSV in appended parts, refused rows, and who last wrote a subscriber. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const types = sql.onDialectOrElse({ pg: () => pgTypes, orElse: () => sqliteTypes })
  for (const statement of statements(types)) yield* sql.unsafe(statement)
})
