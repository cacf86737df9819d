import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { type ColumnTypes, pgTypes, sqliteTypes } from "../columns.js"

const statements = ({ bool, pk }: ColumnTypes): ReadonlyArray<string> => [
  `CREATE TABLE transactional_templates (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    subject TEXT NOT NULL,
    html TEXT NOT NULL,
    text TEXT,
    type TEXT NOT NULL,
    to_addresses TEXT,
    cc_addresses TEXT,
    bcc_addresses TEXT,
    store_mail ${bool} NOT NULL,
    track_opens ${bool} NOT NULL,
    track_clicks ${bool} NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX transactional_templates_name ON transactional_templates (name_key)`,
  `CREATE INDEX transactional_templates_created ON transactional_templates (created_at, id)`,
  `CREATE TABLE transactional_mails (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    template_id INTEGER,
    mail_name TEXT,
    subject TEXT NOT NULL,
    from_address TEXT NOT NULL,
    to_addresses TEXT NOT NULL,
    cc_addresses TEXT NOT NULL,
    bcc_addresses TEXT NOT NULL,
    reply_to_addresses TEXT NOT NULL,
    search_text TEXT NOT NULL,
    html TEXT NOT NULL,
    text TEXT,
    attachments TEXT NOT NULL,
    fake ${bool} NOT NULL,
    stored ${bool} NOT NULL,
    mailer TEXT,
    track_opens ${bool} NOT NULL,
    track_clicks ${bool} NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX transactional_mails_created ON transactional_mails (stored, created_at, id)`,
  `CREATE INDEX transactional_mails_subject ON transactional_mails (stored, lower(subject), id)`,
  `CREATE INDEX transactional_mails_template ON transactional_mails (template_id)`,
  `CREATE INDEX transactional_mails_name ON transactional_mails (lower(mail_name))`,
  `ALTER TABLE sends ADD COLUMN transactional_mail_id INTEGER`,
  `CREATE INDEX sends_transactional ON sends (transactional_mail_id, id) WHERE transactional_mail_id IS NOT NULL`,
  `CREATE INDEX sends_transactional_pending ON sends (id)
    WHERE transactional_mail_id IS NOT NULL AND sent_at IS NULL AND failed_at IS NULL`,
  `CREATE INDEX sends_transport_message ON sends (transport_message_id) WHERE transport_message_id IS NOT NULL`
]

/** Transactional mail templates, the transactional mail log, and sends that belong to a transactional mail. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const types = sql.onDialectOrElse({ pg: () => pgTypes, orElse: () => sqliteTypes })
  for (const statement of statements(types)) yield* sql.unsafe(statement)
})
