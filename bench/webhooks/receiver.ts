/**
 * A loopback webhook receiver for the bench, in its own process: answers 204 at once, counts requests per webhook-id.
 * GET /status → {received, distinct, duplicates, firstAt, lastAt}; POST /reset clears the counts.
 * Usage: node --import tsx bench/webhooks/receiver.ts <port>
 */
import { createServer } from "node:http"

const port = Number(process.argv[2] ?? 2630)
let counts = new Map<string, number>()
let received = 0
let firstAt: number | null = null
let lastAt: number | null = null

createServer((request, response) => {
  if (request.method === "GET" && request.url === "/status") {
    const duplicates = [...counts.values()].reduce((sum, n) => sum + n - 1, 0)
    response.writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ received, distinct: counts.size, duplicates, firstAt, lastAt }))
    return
  }
  if (request.method === "POST" && request.url === "/reset") {
    counts = new Map()
    received = 0
    firstAt = null
    lastAt = null
    response.writeHead(204).end()
    return
  }
  request.resume()
  request.on("end", () => {
    const id = String(request.headers["webhook-id"])
    counts.set(id, (counts.get(id) ?? 0) + 1)
    received++
    const now = Date.now()
    firstAt ??= now
    lastAt = now
    response.writeHead(204).end()
  })
}).listen(port, "127.0.0.1")
