/** A worker thread that signs messages for Dkim.ts: it gets `{ id, raw }` and answers `{ id, headers }` or `{ id, problem }`. */
import { createPrivateKey } from "node:crypto"
import { parentPort, workerData } from "node:worker_threads"
import { type SigningKey, signatureHeaders } from "./dkimSignature.js"

const data = workerData as { readonly keys: ReadonlyArray<Omit<SigningKey, "key"> & { readonly pem: string }> }
const keys: ReadonlyArray<SigningKey> = data.keys.map(({ pem, ...key }) => ({ ...key, key: createPrivateKey(pem) }))

parentPort!.on("message", ({ id, raw }: { readonly id: number; readonly raw: Uint8Array }) => {
  try {
    const headers = signatureHeaders(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), keys, Math.floor(Date.now() / 1000))
    parentPort!.postMessage({ id, headers })
  } catch (error) {
    parentPort!.postMessage({ id, problem: error instanceof Error ? error.message : String(error) })
  }
})
