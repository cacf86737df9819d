import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ServeProcess, startServe } from "./processes.js"

/**
 * A client that goes away mid-request (a browser leaving a page while its requests run or wait their turn) must not
 * take the server's capacity for that token with it: afterwards the same token is served at once.
 */
describe("requests the client aborts", () => {
  let server: ServeProcess
  let folder: string
  const TOKEN = "aborting-client"

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "mailroom-aborts-"))
    server = await startServe("aborts", { API_TOKEN: TOKEN, DATABASE_URL: `sqlite:${join(folder, "db.sqlite")}`, LOG_REQUESTS: "false", CLIENT_CONCURRENCY: "2" }, folder)
  })

  afterAll(async () => {
    await server?.process.kill("SIGTERM")
    rmSync(folder, { recursive: true, force: true })
  })

  it("leave the token's turn to its next requests, however many were cut off and when", async () => {
    const paths = ["/api/token", "/api/email-lists", "/api/campaigns", "/api/statistics/daily?days=365", "/api/subscriber-imports", "/api/templates"]
    for (let round = 0; round < 150; round++) {
      const controller = new AbortController()
      const requests = paths.map((path) =>
        fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: controller.signal }).then((r) => r.arrayBuffer(), () => undefined)
      )
      await sleep(round % 4)
      controller.abort()
      await Promise.all(requests)
    }
    for (let i = 0; i < 6; i++) {
      const reply = await fetch(`${server.url}/api/token`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: AbortSignal.timeout(3000) })
      expect(reply.status).toBe(200)
    }
  })
})
