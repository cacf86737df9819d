import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { type ColumnTypes, pgTypes, sqliteTypes } from "../columns.js"

const statements = ({ pk }: ColumnTypes): ReadonlyArray<string> => [
  `CREATE TABLE campaign_clicks (
    id ${pk},
    campaign_id INTEGER NOT NULL,
    send_id INTEGER NOT NULL,
    link_id INTEGER NOT NULL,
    click_count INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX campaign_clicks_send_link ON campaign_clicks (send_id, link_id)`,
  `CREATE TABLE campaign_unsubscribes (
    id ${pk},
    campaign_id INTEGER NOT NULL,
    send_id INTEGER,
    subscriber_id INTEGER NOT NULL,
    email TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX campaign_unsubscribes_subscriber ON campaign_unsubscribes (campaign_id, subscriber_id)`,
  `CREATE TABLE bounces (
    id ${pk},
    campaign_id INTEGER,
    send_id INTEGER,
    subscriber_id INTEGER,
    email TEXT NOT NULL,
    type TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`,
  `CREATE INDEX bounces_campaign ON bounces (campaign_id, email, type)`,
  `CREATE INDEX bounces_send ON bounces (send_id)`,
  `CREATE INDEX sends_opened ON sends (campaign_id, first_opened_at) WHERE open_count > 0`
]

/** Click, unsubscribe and bounce events of campaigns (opens live on the sends themselves). */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const types = sql.onDialectOrElse({ pg: () => pgTypes, orElse: () => sqliteTypes })
  for (const statement of statements(types)) yield* sql.unsafe(statement)
})
