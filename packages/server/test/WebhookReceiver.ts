import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"

/** One request a receiver got. */
export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly json: any
}

/** What the receiver does with the next request: answer with a status, or never answer. */
export type Answer = number | "hang"

/**
 * A webhook endpoint on an ephemeral loopback port for tests: records every request and answers with the statuses
 * queued by `answerNext` (200 once the queue is empty). Closed with the scope.
 */
export const webhookReceiver = Effect.acquireRelease(
  Effect.promise(async () => {
    const received: Array<Received> = []
    const answers: Array<Answer> = []
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8")
        received.push({ headers: request.headers, body, json: JSON.parse(body) })
        const answer = answers.shift() ?? 200
        if (answer === "hang") return
        response.writeHead(answer, { "content-type": "text/plain" }).end(answer >= 400 ? `failed with ${answer}` : "ok")
      })
    })
    server.keepAliveTimeout = 100
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.address() as AddressInfo
    return {
      url: `http://127.0.0.1:${port}/hooks`,
      received,
      answerNext: (...next: ReadonlyArray<Answer>) => answers.push(...next),
      close: () => new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
    }
  }),
  (receiver) => Effect.promise(receiver.close)
)
