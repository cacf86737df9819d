/**
 * A rig for delivery fault tests with real processes: a FaultySmtpServer, Mailroom on SQLite (`serve` with its
 * workers inside) or Postgres (`serve` for the API and `mailroom worker` processes, optionally reaching Postgres
 * through a TcpProxy that can cut it off), a seeded list, and a report of what the SMTP server got against who should
 * have got it (duplicates, missing, unexpected) and what the sends table says.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type FaultySmtpServer, type FaultySmtpSettings, startFaultySmtpServer } from "@mailroom/smtp/testing"
import Database from "better-sqlite3"
import { PG_URL, postgresSchema } from "./postgresSchema.js"
import { killAll, type MailroomProcess, type ServeProcess, startMailroom, startServe, tail, waitForCampaignStatus } from "./processes.js"
import { startTcpProxy, type TcpProxy } from "./TcpProxy.js"

const TOKEN = "delivery-faults-token"

/** What a rig is made of. */
export interface RigOptions {
  readonly store: "sqlite" | "postgres"
  /** `mailroom worker` processes beside the API (postgres only; sqlite runs its workers inside `serve`). */
  readonly workers?: number
  /** Settings of the SMTP server. */
  readonly smtp?: Partial<FaultySmtpSettings>
  /** Extra environment of every Mailroom process. */
  readonly env?: Record<string, string>
  /** Reach Postgres through a proxy that can cut every connection (a database restart). */
  readonly proxy?: boolean
  /** Run the workers inside `serve` (default: on sqlite only). */
  readonly apiWorkers?: boolean
}

/** What the SMTP server got for one campaign, against who should have got it. */
export interface Delivered {
  readonly mails: number
  /** Addresses that got more than one mail. */
  readonly duplicates: number
  /** Eligible addresses that got none. */
  readonly missing: number
  /** Addresses that got a mail but were not eligible. */
  readonly unexpected: number
  /** The campaign's sends: total, sent, failed, pending and marked uncertain. */
  readonly sends: { readonly rows: number; readonly sent: number; readonly failed: number; readonly pending: number; readonly uncertain: number }
  /** The longest time without any mail arriving, from the first mail to the last (ms): how long a fault stalled it. */
  readonly longestGapMs: number
}

/** A running rig. */
export interface Rig {
  readonly sink: FaultySmtpServer
  readonly proxy: TcpProxy | null
  api: ServeProcess
  readonly workers: Array<MailroomProcess>
  /** Every process started so far (for the logs of a failed test). */
  readonly processes: Array<MailroomProcess>
  readonly query: <A extends object = Record<string, unknown>>(statement: string) => Promise<ReadonlyArray<A>>
  /** A table's name as queries must write it (schema-qualified on Postgres). */
  readonly table: (name: string) => string
  /** A list of `count` subscribed members `user1@…` to `user<count>@…`, and a campaign to it; its uuid and the addresses. */
  readonly campaign: (count: number) => Promise<{ readonly uuid: string; readonly eligible: ReadonlyArray<string> }>
  readonly send: (uuid: string) => Promise<void>
  readonly waitForStatus: (uuid: string, status: string, timeoutMs: number) => Promise<any>
  /**
   * SIGKILLs worker `index` (or the sqlite server) and starts it again with the same settings; a worker's start is not
   * awaited (the others keep sending meanwhile; `waitForStatus` notices one that dies).
   */
  readonly crash: (index?: number) => Promise<void>
  readonly startWorker: (index: number) => Promise<void>
  /** SIGKILLs `serve` and starts it again on the same port, with its workers on or off. */
  readonly restartApi: (workers: boolean) => Promise<void>
  readonly report: (uuid: string, eligible: ReadonlyArray<string>) => Promise<Delivered>
  /** Every process's output joined, for log assertions. */
  readonly logs: () => string
  readonly close: () => Promise<void>
}

const stampSqlite = (offset: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + ${offset}, 'unixepoch')`
const stampPg = (offset: string) => `to_char(to_timestamp(1700000000 + ${offset}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
const uuidSqlite = "lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a' || " +
  "substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))"

/**
 * One set-based INSERT … SELECT of `count` members `<prefix><i>@example.com` with `status` (the idea of
 * bench/subscribers/seed.ts), for either dialect.
 */
export const seedSubscribersSql = (
  dialect: "sqlite" | "postgres",
  table: string,
  listId: number,
  prefix: string,
  count: number,
  status: "subscribed" | "unsubscribed" | "unconfirmed"
): string => {
  const stamp = dialect === "sqlite" ? stampSqlite : stampPg
  const [source, uuid, nl] = dialect === "sqlite"
    ? [`(WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count}) SELECT i FROM n)`, uuidSqlite, "char(10)"]
    : [`generate_series(1, ${count}) AS i`, "gen_random_uuid()::text", "chr(10)"]
  return `INSERT INTO ${table} (uuid, email_list_id, email, first_name, last_name, extra_attributes, search_key, status,
                                subscribed_at, unsubscribed_at, created_at, updated_at)
    SELECT ${uuid}, ${listId}, '${prefix}' || i || '@example.com', 'First' || i, 'Last' || i, '{}',
           '${prefix}' || i || '@example.com' || ${nl} || 'first' || i || ${nl} || 'last' || i, '${status}',
           ${status === "unconfirmed" ? "NULL" : stamp("i")}, ${status === "unsubscribed" ? stamp("i + 60") : "NULL"},
           ${stamp("i")}, ${stamp("i")}
    FROM ${source}`
}

/** Throws `message` (with the reply) unless `ok`: the rig also runs outside vitest (bench/faults). */
const must = (ok: boolean, message: string): void => {
  if (!ok) throw new Error(message)
}

/** Starts a rig; close it in `finally`. */
export const startRig = async (options: RigOptions): Promise<Rig> => {
  const cwd = mkdtempSync(join(tmpdir(), `mailroom-faults-${options.store}-`))
  const sink = await startFaultySmtpServer(options.smtp ?? {})
  const processes: Array<MailroomProcess> = []
  const cleanups: Array<() => Promise<void>> = [async () => rmSync(cwd, { recursive: true, force: true }), () => sink.close()]
  let proxy: TcpProxy | null = null
  let databaseUrl: string
  let query: Rig["query"]
  let schemaPrefix = ""
  try {
    if (options.store === "sqlite") {
      const filename = join(cwd, "mailroom.db")
      databaseUrl = `sqlite:${filename}`
      query = async <A extends object>(statement: string) => {
        const db = new Database(filename)
        try {
          db.pragma("busy_timeout = 10000")
          return /^\s*(SELECT|WITH)/i.test(statement) ? (db.prepare(statement).all() as Array<A>) : (db.exec(statement), [])
        } finally {
          db.close()
        }
      }
    } else {
      const pg = await postgresSchema("mailroom_faults")
      query = pg.query
      cleanups.push(pg.drop)
      schemaPrefix = `${pg.schema}.`
      let url = pg.urlVia()
      if (options.proxy === true) {
        const target = new URL(PG_URL)
        proxy = await startTcpProxy(target.hostname, Number(target.port || 5432))
        const through = new URL(url)
        through.host = `127.0.0.1:${proxy.port}`
        url = through.toString()
        cleanups.push(proxy.close)
      }
      databaseUrl = url
    }
    const env = {
      DATABASE_URL: databaseUrl,
      API_TOKEN: TOKEN,
      LOG_REQUESTS: "false",
      APP_URL: "https://mail.example.test",
      SMTP_URL: sink.url,
      ...options.env
    }
    const inServer = options.store === "sqlite"
    const api = await startServe("serve", { ...env, WORKERS: options.apiWorkers ?? inServer ? "true" : "false" }, cwd)
    processes.push(api.process)
    const workers: Array<MailroomProcess> = []
    const startWorker = async (index: number) => {
      const worker = startMailroom(`worker${index + 1}`, "worker", env, cwd)
      workers[index] = worker
      processes.push(worker)
      await worker.waitForOutput(/Worker running/, 60_000)
    }
    await Promise.all(Array.from({ length: inServer ? 0 : options.workers ?? 2 }, (_, i) => startWorker(i)))

    const table = (name: string) => `${schemaPrefix}${name}`
    const rig: Rig = {
      sink,
      proxy,
      api,
      workers,
      processes,
      query,
      table,
      campaign: async (count) => {
        const list = await rig.api.call("POST", "/api/email-lists", { name: "Faults", default_from_email: "news@example.com" })
        must(list.status === 201, `create list: ${list.status} ${list.text}`)
        const listId = list.body.data.id as number
        await query(seedSubscribersSql(options.store, table("subscribers"), listId, "user", count, "subscribed"))
        await query(`UPDATE ${table("email_lists")} SET active_subscribers_count = ${count} WHERE id = ${listId}`)
        if (options.store === "postgres") await query(`ANALYZE ${table("subscribers")}`)
        const created = await rig.api.call("POST", "/api/campaigns", {
          name: "Fault campaign",
          email_list_uuid: list.body.data.uuid,
          subject: "Hello {{ subscriber.first_name }}",
          html: `<p>Hi {{ subscriber.first_name }},</p><p><a href="https://example.com/offer">See the offer</a></p>`
        })
        must(created.status === 201, `create campaign: ${created.status} ${created.text}`)
        return { uuid: created.body.data.uuid as string, eligible: Array.from({ length: count }, (_, i) => `user${i + 1}@example.com`) }
      },
      send: async (uuid) => {
        const sent = await rig.api.call("POST", `/api/campaigns/${uuid}/send`)
        must(sent.status === 204, `send: ${sent.status} ${sent.text}`)
      },
      waitForStatus: (uuid, status, timeoutMs) =>
        waitForCampaignStatus(rig.api, uuid, status, timeoutMs, processes.filter((p) => !p.hasExited())),
      crash: async (index = 0) => {
        if (inServer) {
          await rig.api.process.kill("SIGKILL")
          rig.api = await startServe("serve", { ...env, WORKERS: "true" }, cwd, { port: rig.api.port })
          processes.push(rig.api.process)
          return
        }
        await workers[index]!.kill("SIGKILL")
        startWorker(index).catch(() => undefined)
      },
      startWorker,
      restartApi: async (workers) => {
        await rig.api.process.kill("SIGKILL")
        rig.api = await startServe("serve", { ...env, WORKERS: workers ? "true" : "false" }, cwd, { port: rig.api.port })
        processes.push(rig.api.process)
      },
      report: async (uuid, eligible) => {
        // let a straggler (a duplicate would come late) arrive before counting
        await new Promise((resolve) => setTimeout(resolve, 1_000))
        const counts = sink.counts()
        const wanted = new Set(eligible)
        const [campaign] = await query<{ id: number }>(`SELECT id FROM ${table("campaigns")} WHERE uuid = '${uuid}'`)
        const [sends] = await query<Record<string, number>>(`
          SELECT count(*) AS rows, count(sent_at) AS sent, count(failed_at) AS failed,
                 sum(CASE WHEN sent_at IS NULL AND failed_at IS NULL THEN 1 ELSE 0 END) AS pending,
                 sum(CASE WHEN delivery_uncertain THEN 1 ELSE 0 END) AS uncertain
          FROM ${table("sends")} WHERE campaign_id = ${campaign!.id}`)
        const times = sink.received.map((mail) => mail.at)
        return {
          longestGapMs: times.reduce((gap, at, i) => (i === 0 ? 0 : Math.max(gap, at - times[i - 1]!)), 0),
          mails: sink.received.length,
          duplicates: [...counts.values()].filter((n) => n > 1).length,
          missing: eligible.filter((address) => !counts.has(address)).length,
          unexpected: [...counts.keys()].filter((address) => !wanted.has(address)).length,
          sends: {
            rows: Number(sends!.rows),
            sent: Number(sends!.sent),
            failed: Number(sends!.failed),
            pending: Number(sends!.pending ?? 0),
            uncertain: Number(sends!.uncertain ?? 0)
          }
        }
      },
      logs: () => processes.map((p) => `--- ${p.name} ---\n${p.output()}`).join("\n"),
      close: async () => {
        await killAll()
        for (const cleanup of cleanups.reverse()) await cleanup()
      }
    }
    return rig
  } catch (error) {
    await killAll()
    for (const cleanup of cleanups.reverse()) await cleanup()
    throw error
  }
}

/** Runs `test` on a rig, printing the tail of every process log when it fails, and closing the rig whatever happens. */
export const withRig = async (options: RigOptions, test: (rig: Rig) => Promise<void>): Promise<void> => {
  const rig = await startRig(options)
  try {
    await test(rig)
  } catch (error) {
    for (const proc of rig.processes) console.log(`--- ${proc.name} (pid ${proc.pid}) log tail ---\n${tail(proc.output(), 15)}`)
    throw error
  } finally {
    await rig.close()
  }
}
