/**
 * DKIM signing (RFC 6376, relaxed/relaxed; RSA-SHA256, and Ed25519-SHA256 per RFC 8463; both at once for dual
 * signing) in worker threads, off the event loop that feeds the SMTP connections: an RSA-2048 signature costs
 * ~0.3–0.6 ms of CPU. Mailroom signs on its own (internal/dkimSignature.ts) rather than with mailauth's signer: on a
 * 47 KB campaign mail mailauth costs ~1.1 ms of CPU besides the signature itself (its body canonicalisation reads
 * the message line by line through a stream parser), against ~0.1 ms here. mailauth verifies every signature in the tests.
 */
import { createPrivateKey, type KeyObject } from "node:crypto"
import { availableParallelism } from "node:os"
import { Worker } from "node:worker_threads"

export { DKIM_SIGNED_HEADERS } from "./internal/dkimSignature.js"

/** One signing key: the domain (`d=`), the selector (`s=`) and the private key in PEM (RSA of 2048 bits or more, or Ed25519). */
export interface DkimKey {
  readonly domain: string
  readonly selector: string
  readonly privateKey: string
}

/** A key that cannot sign: what is wrong with it, in one line. */
export class DkimKeyError extends Error {
  override readonly name = "DkimKeyError"
}

/** Checks a key and parses it: an RSA key of at least 2048 bits or an Ed25519 key; throws a DkimKeyError naming the problem. */
export const checkDkimKey = (key: DkimKey): { readonly type: "rsa" | "ed25519"; readonly key: KeyObject } => {
  if (!/^[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/.test(key.domain)) throw new DkimKeyError(`the DKIM domain ${JSON.stringify(key.domain)} is not a domain name`)
  if (!/^[A-Za-z0-9._-]+$/.test(key.selector)) throw new DkimKeyError(`the DKIM selector ${JSON.stringify(key.selector)} is not valid`)
  let parsed: KeyObject
  try {
    parsed = createPrivateKey({ key: key.privateKey, format: "pem" })
  } catch (error) {
    throw new DkimKeyError(`the DKIM private key is not a PEM private key (${error instanceof Error ? error.message : String(error)})`)
  }
  const type = parsed.asymmetricKeyType
  if (type === "ed25519") return { type, key: parsed }
  if (type !== "rsa") throw new DkimKeyError(`a DKIM key must be RSA or Ed25519, not ${type ?? "unknown"}`)
  const bits = parsed.asymmetricKeyDetails?.modulusLength ?? 0
  if (bits < 2048) throw new DkimKeyError(`an RSA DKIM key must have at least 2048 bits (this one has ${bits})`)
  return { type, key: parsed }
}

/** Splits the PEM private keys of one text (a file may hold an RSA and an Ed25519 key, for dual signing). */
export const pemKeys = (text: string): Array<string> =>
  [...text.matchAll(/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g)].map((match) => match[0])

/** Signs messages: `sign` resolves with the message, one DKIM-Signature header per key first. */
export interface DkimSigner {
  readonly sign: (raw: Buffer) => Promise<Buffer>
  readonly close: () => Promise<void>
}

/**
 * A signing worker: the compiled module, found by package name (so it is found from dist and from the server's bundle
 * alike), or (running from the sources, in tests) the TypeScript one through tsx.
 */
const startWorker = (workerData: unknown): Worker => {
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL(import.meta.resolve("@mailroom/smtp/dkimWorker")), { workerData })
  const source = new URL("./internal/dkimWorker.ts", import.meta.url).href
  const bootstrap = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}) })`
  return new Worker(bootstrap, { eval: true, workerData })
}

/**
 * A signer with these keys (checked first: a DkimKeyError names what is wrong), over worker threads: one per core
 * beyond the first (the event loop's), at least one, at most four.
 */
export const makeDkimSigner = (keys: ReadonlyArray<DkimKey>): DkimSigner => {
  const checked = keys.map((key) => ({ domain: key.domain, selector: key.selector, type: checkDkimKey(key).type, pem: key.privateKey }))
  const pending = new Map<number, { readonly resolve: (headers: string) => void; readonly reject: (error: Error) => void }>()
  let next = 0
  const workers = Array.from({ length: Math.max(1, Math.min(4, availableParallelism() - 1)) }, () => {
    const worker = startWorker({ keys: checked })
    worker.unref()
    worker.on("message", ({ headers, id, problem }: { id: number; headers?: string; problem?: string }) => {
      const waiting = pending.get(id)
      pending.delete(id)
      if (headers !== undefined) waiting?.resolve(headers)
      else waiting?.reject(new Error(`DKIM signing failed: ${problem}`))
    })
    worker.on("error", (error) => {
      for (const waiting of pending.values()) waiting.reject(error)
      pending.clear()
    })
    return worker
  })
  return {
    sign: (raw) =>
      new Promise<Buffer>((resolve, reject) => {
        const id = next++
        pending.set(id, { resolve: (headers) => resolve(Buffer.concat([Buffer.from(headers, "latin1"), raw])), reject })
        // an exact copy, moved to the worker (a view of a pooled buffer would clone the whole pool chunk)
        const copy = new Uint8Array(raw)
        workers[id % workers.length]!.postMessage({ id, raw: copy }, [copy.buffer])
      }),
    close: async () => {
      await Promise.all(workers.map((worker) => worker.terminate()))
    }
  }
}
