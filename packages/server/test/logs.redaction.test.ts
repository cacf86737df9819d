/** Real process with request logging on (the default): log lines name requests without addresses or link signatures. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { describe, expect, it } from "@effect/vitest"
import { killAll, startServe } from "./processes.js"

const TOKEN = "log-redaction-token"

describe.each(["pretty", "json"])("request logs (sqlite file, LOG_REQUESTS=true, LOG_FORMAT=%s)", (format) => {
  it("carry method, path and status, never an address or the signature of a public link", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mailroom-logs-"))
    try {
      const server = await startServe("serve", {
        DATABASE_URL: `sqlite:${join(dir, "mailroom.db")}`,
        API_TOKEN: TOKEN,
        LOG_REQUESTS: "true",
        LOG_FORMAT: format,
        WORKERS: "false"
      }, dir)
      const suppressed = await server.call("POST", "/api/suppressions", { email: "secret.person@example.com" })
      expect(suppressed.status).toBe(201)
      await server.call("GET", "/api/suppressions/secret.person@example.com")
      await server.call("GET", "/api/suppressions?filter[search]=secret.person%40example.com")
      const signature = "SiGnAtUrE0123456"
      await fetch(`${server.url}/u/5e4d0000-0000-4000-8000-000000000009/${signature}`)
      await fetch(`${server.url}/confirm/5e4d0000-0000-4000-8000-000000000009/${signature}`)
      await sleep(200)
      const log = server.process.output()
      expect(log).toContain("/api/suppressions/…")
      expect(log).toContain("/u/5e4d0000-0000-4000-8000-000000000009/…")
      expect(log).not.toContain("secret.person")
      expect(log).not.toContain(signature)
      if (format === "json") {
        const lines = log.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line))
        expect(lines.some((line) => line.annotations["http.url"] === "/api/suppressions/…" && line.annotations["http.status"] === 200)).toBe(true)
      }
    } finally {
      await killAll()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
