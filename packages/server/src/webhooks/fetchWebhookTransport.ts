import { WebhookTransport } from "@mailroom/core"
import { Effect, Layer } from "effect"
import { Webhook } from "standardwebhooks"

/** How a webhook request is limited. */
export interface WebhookTransportOptions {
  /** Longest wait for an answer, in ms (default 10 s). */
  readonly timeoutMs?: number
  /** The most bytes of an answer read (default 64 KiB); the rest is dropped. */
  readonly maxResponseBytes?: number
}

/** Reads at most `max` bytes of a body as text and drops the rest. */
const readCapped = async (body: ReadableStream<Uint8Array> | null, max: number): Promise<string> => {
  if (body === null) return ""
  const reader = body.getReader()
  const chunks: Array<Uint8Array> = []
  let size = 0
  while (size < max) {
    const { done, value } = await reader.read()
    if (done) return Buffer.concat(chunks).toString("utf8")
    chunks.push(value)
    size += value.byteLength
  }
  await reader.cancel().catch(() => undefined)
  return Buffer.concat(chunks).subarray(0, max).toString("utf8")
}

/** Why a request got no answer, in a sentence. */
const reasonOf = (error: unknown, timeoutMs: number): string => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  if ((error as { name?: string }).name === "TimeoutError") return `No answer within ${timeoutMs} ms.`
  return `The request failed: ${cause?.code ?? cause?.message ?? (error as Error).message ?? String(error)}.`
}

/**
 * WebhookTransport over Node's fetch (kept-alive connections): signs with the `standardwebhooks` package, does not
 * follow redirects (a 3xx is a failed attempt), stops waiting after the timeout and reads a capped part of the answer.
 */
export const FetchWebhookTransport = (options: WebhookTransportOptions = {}) =>
  Layer.sync(WebhookTransport, () => {
    const timeoutMs = options.timeoutMs ?? 10_000
    const maxResponseBytes = options.maxResponseBytes ?? 64 * 1024
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
      post: (request) =>
        Effect.promise(async () => {
          const started = performance.now()
          try {
            const response = await fetch(request.url, {
              method: "POST",
              redirect: "manual",
              signal: AbortSignal.timeout(timeoutMs),
              headers: {
                "content-type": "application/json",
                "user-agent": "Mailroom-Webhooks/1",
                "webhook-id": request.messageId,
                "webhook-timestamp": String(Math.floor(request.timestamp.getTime() / 1000)),
                "webhook-signature": signer(request.secret).sign(request.messageId, request.timestamp, request.body)
              },
              body: request.body
            })
            const body = await readCapped(response.body, maxResponseBytes)
            return { _tag: "Answered" as const, status: response.status, body, durationMs: performance.now() - started }
          } catch (error) {
            return { _tag: "NoAnswer" as const, error: reasonOf(error, timeoutMs), durationMs: performance.now() - started }
          }
        })
    })
  })
