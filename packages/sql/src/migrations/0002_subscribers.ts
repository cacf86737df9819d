import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { type ColumnTypes, pgTypes, sqliteTypes } from "../columns.js"

const statements = ({ bool, pk }: ColumnTypes): ReadonlyArray<string> => [
  `ALTER TABLE email_lists ADD COLUMN unconfirmed_count INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE email_lists ADD COLUMN unsubscribed_count INTEGER NOT NULL DEFAULT 0`,
  `CREATE INDEX email_lists_active ON email_lists (active_subscribers_count, id)`,
  `CREATE TABLE tags (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    email_list_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    type TEXT NOT NULL,
    visible_in_preferences ${bool} NOT NULL,
    subscriber_count INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX tags_list_name ON tags (email_list_id, name_key)`,
  `CREATE TABLE segments (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    email_list_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    all_positive_tags_required ${bool} NOT NULL,
    all_negative_tags_required ${bool} NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX segments_list_name ON segments (email_list_id, name_key, id)`,
  `CREATE TABLE segment_tags (
    segment_id INTEGER NOT NULL,
    tag_id INTEGER NOT NULL,
    positive ${bool} NOT NULL,
    PRIMARY KEY (segment_id, positive, tag_id)
  )`,
  `CREATE INDEX segment_tags_tag ON segment_tags (tag_id)`,
  `CREATE TABLE subscribers (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    email_list_id INTEGER NOT NULL,
    email TEXT NOT NULL,
    first_name TEXT,
    last_name TEXT,
    extra_attributes TEXT NOT NULL,
    search_key TEXT NOT NULL,
    status TEXT NOT NULL,
    subscribed_at TEXT,
    unsubscribed_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX subscribers_list_email ON subscribers (email_list_id, email)`,
  `CREATE INDEX subscribers_list_created ON subscribers (email_list_id, created_at, id)`,
  `CREATE INDEX subscribers_list_status ON subscribers (email_list_id, status, created_at, id)`,
  `CREATE TABLE subscriber_tags (
    subscriber_id INTEGER NOT NULL,
    tag_id INTEGER NOT NULL,
    PRIMARY KEY (subscriber_id, tag_id)
  )`,
  `CREATE INDEX subscriber_tags_tag ON subscriber_tags (tag_id, subscriber_id)`,
  `CREATE TABLE jobs (
    id ${pk},
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    run_at TEXT NOT NULL,
    locked_until TEXT,
    last_error TEXT,
    finished_at TEXT,
    failed_at TEXT,
    created_at TEXT NOT NULL
  )`,
  `CREATE INDEX jobs_due ON jobs (run_at, id) WHERE finished_at IS NULL AND failed_at IS NULL`
]

/** Tags, segments, subscribers (with per-status counts on lists) and the durable job table. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const types = sql.onDialectOrElse({ pg: () => pgTypes, orElse: () => sqliteTypes })
  for (const statement of statements(types)) yield* sql.unsafe(statement)
})
