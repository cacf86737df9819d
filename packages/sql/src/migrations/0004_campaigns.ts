import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { type ColumnTypes, pgTypes, sqliteTypes } from "../columns.js"

const counters = `sent_to_number_of_subscribers INTEGER NOT NULL DEFAULT 0,
    open_count INTEGER NOT NULL DEFAULT 0,
    unique_open_count INTEGER NOT NULL DEFAULT 0,
    click_count INTEGER NOT NULL DEFAULT 0,
    unique_click_count INTEGER NOT NULL DEFAULT 0,
    unsubscribe_count INTEGER NOT NULL DEFAULT 0,
    bounce_count INTEGER NOT NULL DEFAULT 0`

const statements = ({ bool, pk }: ColumnTypes): ReadonlyArray<string> => [
  `CREATE TABLE campaigns (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    email_list_id INTEGER,
    template_id INTEGER,
    segment_id INTEGER,
    status TEXT NOT NULL,
    subject TEXT,
    html TEXT,
    structured_html TEXT,
    fields TEXT NOT NULL,
    email_html TEXT,
    webview_html TEXT,
    mailable_class TEXT,
    from_email TEXT,
    from_name TEXT,
    reply_to_email TEXT,
    reply_to_name TEXT,
    segment_description TEXT NOT NULL,
    utm_tags ${bool} NOT NULL,
    add_subscriber_tags ${bool} NOT NULL,
    add_subscriber_link_tags ${bool} NOT NULL,
    disable_webview ${bool} NOT NULL,
    ${counters},
    audience_cursor INTEGER NOT NULL DEFAULT 0,
    audience_frozen_at TEXT,
    scheduled_at TEXT,
    sent_at TEXT,
    statistics_calculated_at TEXT,
    summary_mail_sent_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX campaigns_status ON campaigns (status, scheduled_at)`,
  `CREATE INDEX campaigns_name ON campaigns (name_key, id)`,
  `CREATE TABLE sends (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    campaign_id INTEGER,
    subscriber_id INTEGER,
    email TEXT NOT NULL,
    transport_message_id TEXT,
    sent_at TEXT,
    failed_at TEXT,
    failure_reason TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    locked_until TEXT,
    retry_at TEXT,
    open_count INTEGER NOT NULL DEFAULT 0,
    click_count INTEGER NOT NULL DEFAULT 0,
    first_opened_at TEXT,
    last_opened_at TEXT,
    first_clicked_at TEXT,
    last_clicked_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX sends_campaign_subscriber ON sends (campaign_id, subscriber_id)`,
  `CREATE INDEX sends_pending ON sends (campaign_id, id) WHERE sent_at IS NULL AND failed_at IS NULL`,
  `CREATE INDEX sends_subscriber ON sends (subscriber_id)`,
  `CREATE INDEX sends_sent_at ON sends (sent_at, id)`,
  `CREATE TABLE campaign_links (
    id ${pk},
    campaign_id INTEGER NOT NULL,
    url TEXT NOT NULL,
    click_count INTEGER NOT NULL DEFAULT 0,
    unique_click_count INTEGER NOT NULL DEFAULT 0
  )`,
  `CREATE UNIQUE INDEX campaign_links_url ON campaign_links (campaign_id, url)`,
  `CREATE TABLE rate_budgets (
    key TEXT PRIMARY KEY,
    second BIGINT NOT NULL,
    used INTEGER NOT NULL
  )`,
  `CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  )`
]

/** Campaigns, their sends and tracked links, and installation settings (the URL signing key). */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const types = sql.onDialectOrElse({ pg: () => pgTypes, orElse: () => sqliteTypes })
  for (const statement of statements(types)) yield* sql.unsafe(statement)
})
