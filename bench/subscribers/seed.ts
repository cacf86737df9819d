/** Seeds a million subscribers into one list with set-based SQL (seconds, not minutes), on SQLite or Postgres. */
import { execFileSync } from "node:child_process"
import Database from "better-sqlite3"

/** Shape of the seeded rows: every 20th unsubscribed, every 20th (offset 1) unconfirmed, the rest subscribed. */
const STATUS_SQL = `CASE WHEN i % 20 = 0 THEN 'unsubscribed' WHEN i % 20 = 1 THEN 'unconfirmed' ELSE 'subscribed' END`

/** Counts per status for `count` seeded rows (i = 1..count). */
export const statusCounts = (count: number) => {
  const unsubscribed = Math.floor(count / 20)
  const unconfirmed = Math.floor((count + 19) / 20)
  return { unsubscribed, unconfirmed, subscribed: count - unsubscribed - unconfirmed }
}

/** Seeds `count` subscribers into list `listId` of the SQLite file. */
export const seedSqlite = (filename: string, listId: number, count: number): void => {
  const db = new Database(filename)
  db.pragma("journal_mode = WAL")
  const stamp = (offset: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + ${offset}, 'unixepoch')`
  db.exec(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
    INSERT INTO subscribers (uuid, email_list_id, email, first_name, last_name, extra_attributes, search_key, status,
                             subscribed_at, unsubscribed_at, created_at, updated_at)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a' ||
                 substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
           ${listId}, 'user' || i || '@example.com', 'First' || i, 'Last' || (i % 1000), '{}',
           'user' || i || '@example.com' || char(10) || 'first' || i || char(10) || 'last' || (i % 1000), ${STATUS_SQL},
           CASE WHEN i % 20 = 1 THEN NULL ELSE ${stamp("i")} END,
           CASE WHEN i % 20 = 0 THEN ${stamp("i + 60")} ELSE NULL END,
           ${stamp("i")}, ${stamp("i")}
    FROM n;
  `)
  const counts = statusCounts(count)
  db.prepare(`UPDATE email_lists SET active_subscribers_count = ?, unconfirmed_count = ?, unsubscribed_count = ? WHERE id = ?`)
    .run(counts.subscribed, counts.unconfirmed, counts.unsubscribed, listId)
  db.exec("ANALYZE")
  db.close()
}

/** Seeds `count` subscribers into list `listId` in the `bench` schema of Postgres (through psql). */
export const seedPostgres = (pgUrl: string, listId: number, count: number): void => {
  const stamp = (offset: string) =>
    `to_char(to_timestamp(1700000000 + ${offset}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
  const counts = statusCounts(count)
  const script = `
    SET search_path = bench;
    INSERT INTO subscribers (uuid, email_list_id, email, first_name, last_name, extra_attributes, search_key, status,
                             subscribed_at, unsubscribed_at, created_at, updated_at)
    SELECT gen_random_uuid()::text, ${listId}, 'user' || i || '@example.com', 'First' || i, 'Last' || (i % 1000), '{}',
           'user' || i || '@example.com' || chr(10) || 'first' || i || chr(10) || 'last' || (i % 1000), ${STATUS_SQL},
           CASE WHEN i % 20 = 1 THEN NULL ELSE ${stamp("i")} END,
           CASE WHEN i % 20 = 0 THEN ${stamp("i + 60")} ELSE NULL END,
           ${stamp("i")}, ${stamp("i")}
    FROM generate_series(1, ${count}) AS i;
    UPDATE email_lists SET active_subscribers_count = ${counts.subscribed}, unconfirmed_count = ${counts.unconfirmed},
                           unsubscribed_count = ${counts.unsubscribed} WHERE id = ${listId};
    VACUUM ANALYZE subscribers;
  `
  execFileSync("psql", [pgUrl, "-q", "-v", "ON_ERROR_STOP=1", "-f", "-"], { input: script, stdio: ["pipe", "ignore", "inherit"] })
}
