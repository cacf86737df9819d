import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { type ColumnTypes, pgTypes, sqliteTypes } from "../columns.js"

const statements = ({ bool, pk }: ColumnTypes): ReadonlyArray<string> => [
  `CREATE TABLE templates (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    html TEXT NOT NULL,
    structured_html TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX templates_name ON templates (lower(name), id)`,
  `CREATE INDEX templates_updated_at ON templates (updated_at, id)`,
  `CREATE TABLE email_lists (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    active_subscribers_count INTEGER NOT NULL DEFAULT 0,
    campaigns_feed_enabled ${bool} NOT NULL,
    default_from_email TEXT NOT NULL,
    default_from_name TEXT,
    default_reply_to_email TEXT,
    default_reply_to_name TEXT,
    allow_form_subscriptions ${bool} NOT NULL,
    honeypot_field TEXT,
    redirect_after_subscribed TEXT,
    redirect_after_already_subscribed TEXT,
    redirect_after_subscription_pending TEXT,
    redirect_after_unsubscribed TEXT,
    requires_confirmation ${bool} NOT NULL,
    confirmation_mailable_class TEXT,
    campaign_mailer TEXT,
    automation_mailer TEXT,
    transactional_mailer TEXT,
    report_recipients TEXT,
    report_campaign_sent ${bool} NOT NULL,
    report_campaign_summary ${bool} NOT NULL,
    report_email_list_summary ${bool} NOT NULL,
    email_list_summary_sent_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX email_lists_name ON email_lists (lower(name), id)`,
  `CREATE INDEX email_lists_created_at ON email_lists (created_at, id)`,
  `CREATE TABLE suppressions (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL UNIQUE,
    reason TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX suppressions_created_at ON suppressions (created_at, id)`,
  `CREATE INDEX suppressions_reason ON suppressions (reason, created_at, id)`,
  `CREATE TABLE api_tokens (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    abilities TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`
]

/** Templates, email lists, suppressions and API tokens. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const types = sql.onDialectOrElse({ pg: () => pgTypes, orElse: () => sqliteTypes })
  for (const statement of statements(types)) yield* sql.unsafe(statement)
})
