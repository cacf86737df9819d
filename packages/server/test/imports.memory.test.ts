/**
 * Real process with a small heap (`--max-old-space-size=128`): a 100 MB draft import can be appended, listed and
 * read without the server holding it whole; the index carries no CSV, a single GET streams it.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { killAll, startServe, tail } from "./processes.js"

const TOKEN = "import-memory-token"
const PART = 9 * 1024 * 1024
const PARTS = 11

describe("a 100 MB draft import on a 128 MB heap (sqlite file)", () => {
  it("appends, lists and reads it; the server stays up and answers the rest", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mailroom-import-memory-"))
    try {
      const server = await startServe("serve", {
        DATABASE_URL: `sqlite:${join(dir, "mailroom.db")}`,
        API_TOKEN: TOKEN,
        LOG_REQUESTS: "false",
        WORKERS: "false",
        NODE_OPTIONS: "--max-old-space-size=128"
      }, dir)
      const list = await server.call("POST", "/api/email-lists", { name: "Big", default_from_email: "news@example.com" })
      expect(list.status, list.text).toBe(201)
      const row = "someone.with.a.long.address@example.com,Firstname,Lastname\n"
      const part = row.repeat(Math.floor(PART / row.length))
      const created = await server.call("POST", "/api/subscriber-imports", {
        subscribers_csv: `email,first_name,last_name\n${part}`,
        email_list_id: list.body.data.id,
        subscribe_unsubscribed: false,
        unsubscribe_others: false
      })
      expect(created.status, tail(server.process.output())).toBe(200)
      const id = created.body.data.id as number
      for (let i = 1; i < PARTS; i++) {
        const appended = await fetch(`${server.url}/api/subscriber-imports/${id}/append`, {
          method: "POST",
          headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
          body: JSON.stringify({ subscribers_csv: part })
        })
        expect(appended.status, tail(server.process.output())).toBe(200)
        await appended.body?.cancel()
      }
      const index = await server.call("GET", "/api/subscriber-imports?per_page=100")
      expect(index.status, tail(server.process.output())).toBe(200)
      expect(index.text.length).toBeLessThan(10_000)
      expect(index.body.data[0]).toMatchObject({ id, status: "draft", subscribers_csv: null })
      const one = await fetch(`${server.url}/api/subscriber-imports/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } })
      expect(one.status).toBe(200)
      let bytes = 0
      const reader = one.body!.getReader()
      for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.length
      expect(bytes).toBeGreaterThan(PARTS * part.length)
      const after = await server.call("GET", "/api/templates")
      expect(after.status, tail(server.process.output())).toBe(200)
      expect(server.process.output()).not.toMatch(/heap out of memory|Server Error/)
    } finally {
      await killAll()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 180_000)
})
