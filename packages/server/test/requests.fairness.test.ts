import { mkdtempSync, rmSync } from "node:fs"
import { Agent, request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ServeProcess, startServe } from "./processes.js"

/**
 * One client keeping 200 requests in flight must not lock another out: on SQLite a request runs without yielding,
 * and the hundreds a busy client had sent were all served before the server looked at its sockets again, so a second
 * client's new connection was not accepted until the first one stopped. `npm start`'s defaults (CLIENT_CONCURRENCY 2).
 * Node (libuv) accepts one connection per turn of the event loop (seen with strace: one accept4 per epoll_pwait), so
 * the first client's own burst of 200 new connections takes 200 turns to be let in; the second client is timed once
 * each of them has been answered, as a steady client with its connections open, which is what the test is about.
 */
describe("a second client beside one with 200 requests in flight (SQLite, default settings)", () => {
  let server: ServeProcess
  let folder: string
  const TOKEN = "busy-client"

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "mailroom-fairness-"))
    server = await startServe("fairness", { API_TOKEN: TOKEN, DATABASE_URL: `sqlite:${join(folder, "db.sqlite")}`, LOG_REQUESTS: "false" }, folder)
  })

  afterAll(async () => {
    await server?.process.kill("SIGTERM")
    rmSync(folder, { recursive: true, force: true })
  })

  /** One GET through `agent`; its status. */
  const get = (agent: Agent, path: string, token: string) =>
    new Promise<number>((resolve, reject) => {
      const sent = request({ host: "127.0.0.1", port: server.port, path, agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
        response.resume().on("end", () => resolve(response.statusCode ?? 0))
      })
      sent.on("error", reject)
      sent.end()
    })

  it("is answered within a second while the first client keeps its 200 requests going", async () => {
    const list = await server.call("POST", "/api/email-lists", { name: "Fair", default_from_email: "fair@example.com" })
    expect(list.status).toBe(201)
    const subscribers = `/api/email-lists/${list.body.data.uuid}/subscribers`
    for (let i = 0; i < 500; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, j) => server.call("POST", subscribers, { email: `p${i + j}@example.com`, first_name: `P${i + j}` })))
    }
    const token = await server.call("POST", "/api/tokens", { name: "second client", abilities: ["read"] })
    expect(token.status).toBe(201)
    const second = token.body.data.token as string

    const busy = new Agent({ keepAlive: true, maxSockets: 200 })
    const other = new Agent({ keepAlive: true, maxSockets: 1 })
    let busyAnswers = 0
    let done = false
    const latencies: Array<number> = []
    const connected = new Set<number>()
    try {
      await Promise.all([
        ...Array.from({ length: 200 }, async (_, i) => {
          for (let n = i; !done; n += 200) {
            expect(await get(busy, `${subscribers}?page=${(n % 30) + 1}&filter[search]=p1`, TOKEN)).toBe(200)
            connected.add(i)
            busyAnswers++
          }
        }),
        (async () => {
          try {
            const deadline = Date.now() + 20_000
            while (connected.size < 200 && Date.now() < deadline) await sleep(50)
            expect(connected.size, "the first client's connections were not all let in").toBe(200)
            await sleep(1_000)
            const before = busyAnswers
            for (let i = 0; i < 5; i++) {
              const started = Date.now()
              expect(await get(other, `${subscribers}?filter[search]=p${i}`, second)).toBe(200)
              latencies.push(Date.now() - started)
            }
            expect(busyAnswers - before, "the first client was not kept busy").toBeGreaterThan(0)
          } finally {
            done = true
          }
        })()
      ])
    } finally {
      busy.destroy()
      other.destroy()
    }
    expect(busyAnswers, "the first client was not kept busy").toBeGreaterThan(400)
    expect(latencies.length).toBeGreaterThan(0)
    expect(Math.max(...latencies), `the second client's latencies: ${latencies.join(", ")} ms`).toBeLessThan(1_000)
  }, 60_000)
})
