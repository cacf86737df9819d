import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { type ColumnTypes, pgTypes, sqliteTypes } from "../columns.js"

const statements = ({ bool, pk }: ColumnTypes, no: string): ReadonlyArray<string> => [
  `CREATE TABLE automation_mails (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    subject TEXT,
    from_email TEXT,
    from_name TEXT,
    reply_to_email TEXT,
    reply_to_name TEXT,
    html TEXT,
    template_id INTEGER,
    fields TEXT NOT NULL,
    email_html TEXT,
    webview_html TEXT,
    utm_tags ${bool} NOT NULL DEFAULT ${no},
    add_subscriber_tags ${bool} NOT NULL DEFAULT ${no},
    add_subscriber_link_tags ${bool} NOT NULL DEFAULT ${no},
    track_opens ${bool} NOT NULL,
    track_clicks ${bool} NOT NULL,
    sent_to_number_of_subscribers INTEGER NOT NULL DEFAULT 0,
    open_count INTEGER NOT NULL DEFAULT 0,
    unique_open_count INTEGER NOT NULL DEFAULT 0,
    click_count INTEGER NOT NULL DEFAULT 0,
    unique_click_count INTEGER NOT NULL DEFAULT 0,
    unsubscribe_count INTEGER NOT NULL DEFAULT 0,
    bounce_count INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX automation_mails_name ON automation_mails (lower(name), id)`,
  `CREATE INDEX automation_mails_created ON automation_mails (created_at, id)`,
  `CREATE TABLE automation_mail_links (
    id ${pk},
    automation_mail_id INTEGER NOT NULL,
    url TEXT NOT NULL,
    click_count INTEGER NOT NULL DEFAULT 0,
    unique_click_count INTEGER NOT NULL DEFAULT 0
  )`,
  `CREATE UNIQUE INDEX automation_mail_links_url ON automation_mail_links (automation_mail_id, url)`,
  `CREATE TABLE automation_mail_clicks (
    id ${pk},
    automation_mail_id INTEGER NOT NULL,
    send_id INTEGER NOT NULL,
    link_id INTEGER NOT NULL,
    click_count INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX automation_mail_clicks_send_link ON automation_mail_clicks (send_id, link_id)`,
  `CREATE INDEX automation_mail_clicks_mail ON automation_mail_clicks (automation_mail_id, created_at)`,
  `CREATE TABLE automation_mail_unsubscribes (
    id ${pk},
    automation_mail_id INTEGER NOT NULL,
    send_id INTEGER,
    subscriber_id INTEGER NOT NULL,
    email TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX automation_mail_unsubscribes_subscriber ON automation_mail_unsubscribes (automation_mail_id, subscriber_id)`,
  `ALTER TABLE bounces ADD COLUMN automation_mail_id INTEGER`,
  `CREATE INDEX bounces_automation_mail ON bounces (automation_mail_id, email, type) WHERE automation_mail_id IS NOT NULL`,
  `ALTER TABLE sends ADD COLUMN automation_mail_id INTEGER`,
  `ALTER TABLE sends ADD COLUMN automation_run_id INTEGER`,
  `CREATE UNIQUE INDEX sends_automation_run_mail ON sends (automation_run_id, automation_mail_id) WHERE automation_run_id IS NOT NULL`,
  `CREATE INDEX sends_automation_mail ON sends (automation_mail_id, id) WHERE automation_mail_id IS NOT NULL`,
  `CREATE INDEX sends_automation_opened ON sends (automation_mail_id, first_opened_at) WHERE automation_mail_id IS NOT NULL AND open_count > 0`,
  `CREATE INDEX sends_automation_pending ON sends (id)
    WHERE automation_mail_id IS NOT NULL AND sent_at IS NULL AND failed_at IS NULL`,
  `CREATE TABLE automations (
    id ${pk},
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    email_list_id INTEGER,
    segment_id INTEGER,
    status TEXT NOT NULL,
    trigger_spec TEXT,
    actions TEXT NOT NULL,
    repeat_enabled ${bool} NOT NULL,
    repeat_only_after_halt ${bool} NOT NULL,
    started_at TEXT,
    trigger_next_at TEXT,
    trigger_cursor INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX automations_name ON automations (lower(name), id)`,
  `CREATE INDEX automations_created ON automations (created_at, id)`,
  `CREATE TABLE automation_runs (
    id ${pk},
    automation_id INTEGER NOT NULL,
    subscriber_id INTEGER NOT NULL,
    run_id INTEGER,
    action_uuid TEXT,
    state TEXT NOT NULL,
    entered_at TEXT NOT NULL,
    arrived_at TEXT NOT NULL,
    next_run_at TEXT,
    lease_owner TEXT,
    halted_reason TEXT,
    updated_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX automation_runs_active ON automation_runs (automation_id, subscriber_id) WHERE state = 'active' AND run_id IS NULL`,
  `CREATE INDEX automation_runs_due ON automation_runs (next_run_at, id) WHERE state = 'active'`,
  `CREATE INDEX automation_runs_subscriber ON automation_runs (automation_id, subscriber_id, state)`,
  `CREATE INDEX automation_runs_action ON automation_runs (automation_id, action_uuid, state)`,
  `CREATE INDEX automation_runs_of_subscriber ON automation_runs (subscriber_id)`,
  `CREATE TABLE automation_action_counts (
    automation_id INTEGER NOT NULL,
    action_uuid TEXT NOT NULL,
    completed INTEGER NOT NULL,
    PRIMARY KEY (automation_id, action_uuid)
  )`
]

/**
 * Automation mails (with their links, clicks and unsubscribes; sends and bounces name the mail), automations, and
 * each subscriber's position in an automation (a row per position: a split forks a run into two rows sharing its
 * `run_id`), with the count of passes per action.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const pg = sql.onDialectOrElse({ pg: () => true, orElse: () => false })
  for (const statement of statements(pg ? pgTypes : sqliteTypes, pg ? "FALSE" : "0")) yield* sql.unsafe(statement)
})
