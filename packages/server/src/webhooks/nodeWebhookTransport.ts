import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http"
import { Agent as HttpsAgent, request as httpsRequest } from "node:https"
import { type WebhookResponse, WebhookTransport } from "@mailroom/core"
import { Effect, Layer } from "effect"
import { Webhook } from "standardwebhooks"

/** How a webhook request is limited. */
export interface WebhookTransportOptions {
  /** Longest wait for an answer, in ms (default 10 s). */
  readonly timeoutMs?: number
  /** The most bytes of an answer read (default 64 KiB); the rest is dropped. */
  readonly maxResponseBytes?: number
}

/** Why a request got no answer, in a sentence. */
const reasonOf = (error: unknown): string => {
  const { code, message } = error as { code?: string; message?: string }
  return `The request failed: ${code ?? message ?? String(error)}.`
}

/**
 * WebhookTransport over node:http and node:https with kept-alive connections (a third of fetch's CPU per request,
 * bench/HISTORY.md): signs with the `standardwebhooks` package, does not follow redirects (a 3xx is a failed attempt),
 * gives up after the timeout and reads a capped part of the answer.
 */
export const NodeWebhookTransport = (options: WebhookTransportOptions = {}) =>
  Layer.scoped(
    WebhookTransport,
    Effect.gen(function*() {
      const timeoutMs = options.timeoutMs ?? 10_000
      const maxResponseBytes = options.maxResponseBytes ?? 64 * 1024
      const agents = yield* Effect.acquireRelease(
        Effect.sync(() => ({ http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) })),
        (agents) => Effect.sync(() => {
          agents.http.destroy()
          agents.https.destroy()
        })
      )
      const signers = new Map<string, Webhook>()
      const signer = (secret: string) => {
        let found = signers.get(secret)
        if (found === undefined) {
          found = new Webhook(secret)
          signers.set(secret, found)
        }
        return found
      }
      return WebhookTransport.of({
        post: (webhook) =>
          Effect.async<WebhookResponse>((resume) => {
            const started = performance.now()
            const elapsed = () => performance.now() - started
            let settled = false
            const settle = (response: WebhookResponse) => {
              if (settled) return
              settled = true
              clearTimeout(timer)
              resume(Effect.succeed(response))
            }
            const url = new URL(webhook.url)
            const secure = url.protocol === "https:"
            const body = Buffer.from(webhook.body)
            const request = (secure ? httpsRequest : httpRequest)(url, {
              method: "POST",
              agent: secure ? agents.https : agents.http,
              headers: {
                "content-type": "application/json",
                "content-length": body.byteLength,
                "user-agent": "Mailroom-Webhooks/1",
                "webhook-id": webhook.messageId,
                "webhook-timestamp": String(Math.floor(webhook.timestamp.getTime() / 1000)),
                "webhook-signature": signer(webhook.secret).sign(webhook.messageId, webhook.timestamp, webhook.body)
              }
            }, (response: IncomingMessage) => {
              const chunks: Array<Buffer> = []
              let size = 0
              const done = () =>
                settle({
                  _tag: "Answered",
                  status: response.statusCode ?? 0,
                  body: Buffer.concat(chunks).subarray(0, maxResponseBytes).toString("utf8"),
                  durationMs: elapsed()
                })
              response.on("data", (chunk: Buffer) => {
                if (size >= maxResponseBytes) return
                chunks.push(chunk)
                size += chunk.byteLength
                if (size >= maxResponseBytes) {
                  done()
                  response.destroy()
                }
              })
              response.on("end", done)
              response.on("error", done)
            })
            const timer = setTimeout(() => {
              settle({ _tag: "NoAnswer", error: `No answer within ${timeoutMs} ms.`, durationMs: elapsed() })
              request.destroy()
            }, timeoutMs)
            request.on("error", (error) => settle({ _tag: "NoAnswer", error: reasonOf(error), durationMs: elapsed() }))
            request.end(body)
            return Effect.sync(() => {
              clearTimeout(timer)
              request.destroy()
            })
          })
      })
    })
  )
