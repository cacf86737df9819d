/**
 * EXPERIMENT (bench only): builds MIME messages on a worker thread, so that the main thread only talks SMTP.
 * Receives `{ id, message }`, answers `{ id, raw, from, to }` with the bytes' ArrayBuffer transferred (no copy), or
 * `{ id, error }`.
 */
import { parentPort } from "node:worker_threads"
import type { MailMessage } from "@mailroom/core"
import { buildMime } from "../../packages/smtp/src/internal/mime.js"

parentPort!.on("message", ({ id, message }: { id: number; message: MailMessage }) => {
  try {
    const mail = buildMime(message)
    const raw = mail.raw
    // a Buffer over 4 KB owns its ArrayBuffer; transfer it when so, else copy
    const whole = raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength
    const buffer = whole ? raw.buffer : raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength)
    parentPort!.postMessage({ id, raw: buffer, from: mail.envelope.from, to: mail.envelope.to[0] }, [buffer as ArrayBuffer])
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) })
  }
})
