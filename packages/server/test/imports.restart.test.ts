/** Real processes: `serve` (SQLite file, IMPORT_LEASE_SECONDS=2) SIGKILLed mid-way through a 60,000-row import resumes it exactly. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import Database from "better-sqlite3"
import { describe, expect, it } from "@effect/vitest"
import { killAll, type ServeProcess, startServe, tail } from "./processes.js"

const TOKEN = "import-restart-token"
const ROWS = 60_000
const BATCH = 3_000
const INVALID = "The email is not a valid address."

/** The CSV, the refused rows the import must report, the addresses it must write and the rows carrying each tag. */
const fixture = () => {
  const invalid = new Map<number, string>()
  for (let i = 7_919; i <= ROWS; i += 7_919) invalid.set(i, i % 2 === 0 ? `broken${i}@` : `"q"${i}@example.com`)
  const repeats = new Map<number, number>()
  for (let i = 9_973; i <= ROWS; i += 9_973) repeats.set(i, i - 5_000)
  for (const target of repeats.values()) if (invalid.has(target) || repeats.has(target)) throw new Error(`bad fixture: ${target}`)
  const lines = ["email,first_name,tags"]
  const errors: Array<{ line: number; email: string; reason: string }> = []
  const tags: Record<string, number> = { t0: 0, t1: 0, t2: 0, t3: 0 }
  const written = new Set<string>()
  for (let i = 1; i <= ROWS; i++) {
    const email = invalid.get(i) ?? (repeats.has(i) ? `Person${repeats.get(i)}@Example.com` : `person${i}@example.com`)
    lines.push(`${email},First${i},t${i % 4}`)
    if (invalid.has(i)) errors.push({ line: i + 1, email, reason: INVALID })
    else if (!repeats.has(i)) {
      written.add(email)
      tags[`t${i % 4}`]!++
    }
  }
  const csv = lines.join("\n") + "\n"
  const third = Math.ceil(csv.length / 3)
  return { parts: [csv.slice(0, third), csv.slice(third, 2 * third), csv.slice(2 * third)], errors, tags, written }
}

describe("subscriber import survives a crash (sqlite file, workers in the server)", () => {
  it("SIGKILL mid-import, restart: resumes after the last batch and completes with exact counts and errors", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mailroom-import-restart-"))
    const filename = join(dir, "mailroom.db")
    const servers: Array<ServeProcess> = []
    try {
      const env = {
        DATABASE_URL: `sqlite:${filename}`,
        API_TOKEN: TOKEN,
        LOG_REQUESTS: "false",
        WORKERS: "true",
        OUTBOX_DIR: join(dir, "outbox"),
        IMPORT_LEASE_SECONDS: "2",
        IMPORT_BATCH_ROWS: String(BATCH)
      }
      const { parts, errors, tags, written } = fixture()
      const first = await startServe("serve#1", env, dir)
      servers.push(first)
      const list = await first.call("POST", "/api/email-lists", { name: "Restart list", default_from_email: "news@example.com" })
      expect(list.status, list.text).toBe(201)
      const created = await first.call("POST", "/api/subscriber-imports", {
        subscribers_csv: parts[0],
        email_list_id: list.body.data.id,
        subscribe_unsubscribed: false,
        unsubscribe_others: false
      })
      expect(created.status, created.text).toBe(200)
      const id = created.body.data.id as number
      for (const part of parts.slice(1)) {
        const appended = await first.call("POST", `/api/subscriber-imports/${id}/append`, { subscribers_csv: part })
        expect(appended.status, appended.text).toBe(200)
      }
      const started = await first.call("POST", `/api/subscriber-imports/${id}/start`)
      expect(started.status, started.text).toBe(204)

      let seen = 0
      const deadline = Date.now() + 60_000
      while (Date.now() < deadline) {
        const r = await first.call("GET", `/api/subscriber-imports/${id}`)
        expect(r.status, r.text).toBe(200)
        seen = r.body.data.imported_subscribers_count ?? 0
        if (seen > 0 || r.body.data.status === "completed" || r.body.data.status === "failed") break
        await sleep(10)
      }
      await first.process.kill("SIGKILL")
      expect(seen, "the import did not run, or finished before the kill: the test proves nothing").toBeGreaterThan(0)
      expect(seen).toBeLessThan(ROWS)

      const db = new Database(filename, { readonly: true })
      const atKill = (() => {
        try {
          return db.prepare("SELECT status, processed_rows AS processed, imported_subscribers_count AS imported FROM subscriber_imports WHERE id = ?").get(id) as
            { status: string; processed: number; imported: number }
        } finally {
          db.close()
        }
      })()
      console.log(`[import-restart] seen=${seen} atKill=${JSON.stringify(atKill)}`)
      expect(atKill.status).toBe("importing")
      expect(atKill.processed).toBeLessThan(ROWS)
      expect(atKill.processed % BATCH).toBe(0)
      expect(atKill.imported).toBe(atKill.processed)

      const second = await startServe("serve#2", env, dir, { port: first.port })
      servers.push(second)
      const restarted = Date.now()
      let resumedAfter: number | undefined
      let last: any = undefined
      while (Date.now() - restarted < 90_000 && !second.process.hasExited()) {
        const r = await second.call("GET", `/api/subscriber-imports/${id}`)
        expect(r.status, r.text).toBe(200)
        last = r.body.data
        if (resumedAfter === undefined && (last.imported_subscribers_count > atKill.processed || last.status !== "importing")) {
          resumedAfter = Date.now() - restarted
        }
        if (last.status === "completed" || last.status === "failed") break
        await sleep(100)
      }
      console.log(`[import-restart] resumed ${resumedAfter} ms after the restart; ${JSON.stringify(last)}`)
      expect(resumedAfter, "a 2 s lease lets another worker take the import over within seconds").toBeLessThan(15_000)
      expect(last).toMatchObject({ status: "completed", imported_subscribers_count: ROWS, error_count: errors.length, failure_reason: null })

      const reported = await second.call("GET", `/api/subscriber-imports/${id}/errors?per_page=100`)
      expect(reported.status, reported.text).toBe(200)
      expect(reported.body.data).toEqual(errors)
      const uuid = list.body.data.uuid as string
      const all = await second.call("GET", `/api/email-lists/${uuid}/subscribers?per_page=1`)
      expect(all.body.meta.total).toBe(written.size)
      const subscribed = await second.call("GET", `/api/email-lists/${uuid}/subscribers?per_page=1&filter[status]=subscribed`)
      expect(subscribed.body.meta.total).toBe(written.size)
      expect((await second.call("GET", `/api/email-lists/${uuid}`)).body.data.active_subscribers_count).toBe(written.size)
      const tagList = await second.call("GET", `/api/email-lists/${uuid}/tags?per_page=100`)
      expect(Object.fromEntries(tagList.body.data.map((t: any) => [t.name, t.subscriber_count]))).toEqual(tags)
      const repeated = await second.call("GET", `/api/email-lists/${uuid}/subscribers?filter[email]=person4973@example.com`)
      expect(repeated.body.data.map((s: any) => s.first_name)).toEqual(["First4973"])
    } catch (error) {
      for (const server of servers) console.log(`--- ${server.process.name} log tail ---\n${tail(server.process.output(), 15)}`)
      throw error
    } finally {
      await killAll()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 170_000)
})
