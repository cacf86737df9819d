/**
 * The limits beside the import benchmark's figure, measured in the same run: a bare loop with no Mailroom in it writes
 * the rows an import of the benchmark's CSV writes into empty copies of the same tables (with their indexes), in
 * transactions of the same size and in the same order (windows sorted by address, as the server's), from rows built
 * before the clock starts: per batch the look-up of its addresses, the subscribers,
 * their tag links and their events (one `subscriber.created`, one `tag.added` per link). SQLite runs multi-row INSERTs
 * of 500 rows through better-sqlite3 with the server's settings, its checkpoints left out (the server runs them in
 * another thread); Postgres runs COPY through pg and pg-copy-streams. csv-parse alone over the same parts is timed too.
 * None of this includes what an importer must also do (CSV parsing, checks, progress, statistics), so it is what no
 * importer could beat on this machine with these tables.
 */
import { rmSync } from "node:fs"
import { finished } from "node:stream/promises"
import Database from "better-sqlite3"
import { parse } from "csv-parse/sync"
import { compareAddresses } from "@mailroom/core"
import { CSV_PARSE_OPTIONS } from "@mailroom/csv"
import { copyField } from "@mailroom/postgres"
import Pg from "pg"
import { from as copyFrom } from "pg-copy-streams"
import { rowOf } from "./rows.js"

/** The tables an import of new subscribers writes. */
const TABLES = ["subscribers", "subscriber_tags", "events"]
/** Tag ids by name (the bare loop has no tags table). */
const TAG_IDS = new Map([["news", 1], ["vip", 2], ["customers", 3], ["beta", 4], ["events", 5]])
/** The columns the bare loops write. */
const SUBSCRIBER_COLUMNS = "id, uuid, email_list_id, email, created_at, first_name, last_name, extra_attributes, search_key, status, subscribed_at, " +
  "unsubscribed_at, updated_at, last_import_id"
const EVENT_COLUMNS = "type, created_at, email_list_id, subscriber_id, ref_id, data"
/** Addresses per look-up statement, as the importer sends them on SQLite. */
const LOOKUP = 5_000

/** Time-ordered ids like the importer's UUIDv7s. */
const uuidOf = (at: number, i: number) => {
  const time = at.toString(16).padStart(12, "0")
  return `${time.slice(0, 8)}-${time.slice(8)}-7000-8000-${i.toString(16).padStart(12, "0")}`
}

/**
 * The rows a batch of new subscribers writes, as value arrays in the order of the columns above: the CSV's rows
 * `order[first - 1]`..`order[last - 1]`, numbered `first`..`last` as the importer numbers them in the order it writes.
 */
const batchRows = (first: number, last: number, sorted: boolean, order: ReadonlyArray<number>) => {
  const at = Date.now()
  const stamp = new Date(at).toISOString()
  const created = JSON.stringify({ status: "subscribed" })
  const emails: Array<string> = []
  const subscribers: Array<Array<string | number | null>> = []
  const links: Array<Array<number>> = []
  const events: Array<Array<string | number | null>> = []
  for (let i = first; i <= last; i++) {
    const row = rowOf(order[i - 1]!, sorted)
    const searchKey = `${row.email}\n${row.firstName.toLowerCase()}\n${row.lastName.toLowerCase()}`
    const extra = JSON.stringify({ company: row.company, city: row.city })
    emails.push(row.email)
    subscribers.push([i, uuidOf(at, i), 1, row.email, stamp, row.firstName, row.lastName, extra, searchKey, "subscribed", stamp, null, stamp, 1])
    events.push(["subscriber.created", stamp, 1, i, null, created])
    for (const tag of row.tags) {
      const tagId = TAG_IDS.get(tag)!
      links.push([i, tagId])
      events.push(["tag.added", stamp, 1, i, tagId, JSON.stringify({ tag })])
    }
  }
  return { emails, subscribers, links, events }
}

/** The CSV's rows (numbered from 1) in the order the importer writes them: each window of `window` rows by address. */
const writeOrder = (count: number, sorted: boolean, window: number): Array<number> => {
  const order = Array.from({ length: count }, (_, i) => i + 1)
  if (window <= 0) return order
  const emails = order.map((i) => rowOf(i, sorted).email)
  const byEmail = (a: number, b: number) => compareAddresses(emails[a - 1]!, emails[b - 1]!)
  for (let from = 0; from < count; from += window) {
    const sortedWindow = order.slice(from, from + window).sort(byEmail)
    for (let k = 0; k < sortedWindow.length; k++) order[from + k] = sortedWindow[k]!
  }
  return order
}

/** Every batch of the import, built before the clock starts (the loops time the store, not the building of rows). */
const batchesOf = (count: number, batch: number, sorted: boolean, window: number) => {
  const order = writeOrder(count, sorted, window)
  const batches: Array<ReturnType<typeof batchRows>> = []
  for (let first = 1; first <= count; first += batch) batches.push(batchRows(first, Math.min(count, first + batch - 1), sorted, order))
  return batches
}

/** Rows per second of `work`, which writes `count` rows. */
const rate = async (count: number, work: () => Promise<void> | void) => {
  const start = performance.now()
  await work()
  return count / ((performance.now() - start) / 1000)
}

/** csv-parse alone over the parts, with the importer's options: rows per second. */
export const parseLimit = (parts: ReadonlyArray<string>, count: number): Promise<number> =>
  rate(count, () => {
    let rows = 0
    for (const part of parts) {
      rows += (parse(part, { ...CSV_PARSE_OPTIONS }) as Array<unknown>).length
    }
    if (rows < count) throw new Error(`csv-parse read ${rows} rows of ${count}`)
  })

/**
 * The bare loop on a new SQLite file with the tables (and indexes) of `schemaFile`, a database the server migrated, in
 * windows of `window` rows sorted by address (0: the CSV's order).
 */
export const sqliteLimit = (schemaFile: string, file: string, count: number, batch: number, sorted: boolean, window: number): Promise<number> => {
  const source = new Database(schemaFile, { readonly: true })
  const ddl = source.prepare(`SELECT sql FROM sqlite_master WHERE tbl_name IN (${TABLES.map(() => "?").join(", ")}) AND sql IS NOT NULL
    ORDER BY type = 'index', rowid`).pluck().all(...TABLES) as Array<string>
  source.close()
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true })
  const db = new Database(file)
  for (const pragma of ["journal_mode = WAL", "synchronous = NORMAL", `cache_size = ${-32 * 1024}`, "temp_store = MEMORY", "wal_autocheckpoint = 0"]) {
    db.pragma(pragma)
  }
  for (const statement of ddl) db.exec(statement)
  const lookup = db.prepare(`SELECT id, email, first_name, last_name, extra_attributes, subscribed_at, unsubscribed_at, last_import_id
    FROM subscribers WHERE email_list_id = 1 AND email IN (${Array(LOOKUP).fill("?").join(", ")})`)
  const statements = new Map<string, Database.Statement>()
  /** Inserts rows with multi-row statements of up to 500 rows, as the importer does. */
  const insertMany = (table: string, columns: string, rows: ReadonlyArray<ReadonlyArray<unknown>>) => {
    for (let at = 0; at < rows.length; at += 500) {
      const part = rows.slice(at, at + 500)
      const key = `${table}:${part.length}`
      let statement = statements.get(key)
      if (statement === undefined) {
        const tuple = `(${part[0]!.map(() => "?").join(", ")})`
        statement = db.prepare(`INSERT INTO ${table} (${columns}) VALUES ${Array(part.length).fill(tuple).join(", ")}`)
        statements.set(key, statement)
      }
      statement.run(...part.flat())
    }
  }
  const batches = batchesOf(count, batch, sorted, window)
  return rate(count, () => {
    for (const { emails, events, links, subscribers } of batches) {
      db.exec("BEGIN")
      for (let from = 0; from < emails.length; from += LOOKUP) {
        if (lookup.all(...Array.from({ length: LOOKUP }, (_, k) => emails[from + k] ?? "")).length > 0) throw new Error("the bare loop found an address twice")
      }
      insertMany("subscribers", SUBSCRIBER_COLUMNS, subscribers)
      insertMany("subscriber_tags", "subscriber_id, tag_id", links)
      insertMany("events", EVENT_COLUMNS, events)
      db.exec("COMMIT")
    }
  }).finally(() => {
    db.close()
    for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true })
  })
}

/** COPY text of rows. */
const copyText = (rows: ReadonlyArray<ReadonlyArray<string | number | null>>) => rows.map((row) => row.map(copyField).join("\t")).join("\n") + "\n"

/** COPYs rows (COPY text) into `table`'s `columns` on `client`. */
const copy = async (client: Pg.Client, table: string, columns: string, text: string) => {
  const stream = client.query(copyFrom(`COPY ${table} (${columns}) FROM STDIN`))
  stream.end(text)
  await finished(stream)
}

/**
 * The bare loop in a new schema `bare` of the database at `url`, with copies (indexes included) of `schema`'s tables,
 * in windows of `window` rows sorted by address (0: the CSV's order).
 */
export const postgresLimit = async (url: string, schema: string, count: number, batch: number, sorted: boolean, window: number): Promise<number> => {
  const client = new Pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query("DROP SCHEMA IF EXISTS bare CASCADE; CREATE SCHEMA bare")
    for (const table of TABLES) await client.query(`CREATE TABLE bare.${table} (LIKE ${schema}.${table} INCLUDING ALL)`)
    await client.query("SET search_path = bare")
    const batches = batchesOf(count, batch, sorted, window).map(({ emails, events, links, subscribers }) => ({
      emails,
      subscribers: copyText(subscribers),
      links: copyText(links),
      events: copyText(events)
    }))
    return await rate(count, async () => {
      for (const { emails, events, links, subscribers } of batches) {
        await client.query("BEGIN")
        const found = await client.query("SELECT id FROM subscribers WHERE email_list_id = 1 AND email = ANY($1::text[])", [emails])
        if (found.rowCount !== 0) throw new Error("the bare loop found an address twice")
        await copy(client, "subscribers", SUBSCRIBER_COLUMNS, subscribers)
        await copy(client, "subscriber_tags", "subscriber_id, tag_id", links)
        await copy(client, "events", EVENT_COLUMNS, events)
        await client.query("COMMIT")
      }
    })
  } finally {
    await client.query("DROP SCHEMA IF EXISTS bare CASCADE").catch(() => undefined)
    await client.end()
  }
}
