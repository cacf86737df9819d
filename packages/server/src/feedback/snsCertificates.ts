import { X509Certificate, type KeyObject } from "node:crypto"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"

/** Where SNS signing keys come from: given a SigningCertURL already checked to be SNS's, the keys to try. */
export type SnsCertificates = (url: URL) => Effect.Effect<ReadonlyArray<KeyObject>, Error>

/** Whether a SigningCertURL may be fetched: https on `sns.<region>.amazonaws.com`, a .pem file. */
export const isSnsCertificateUrl = (url: URL): boolean =>
  url.protocol === "https:" && /^sns\.[a-z0-9-]+\.amazonaws\.com$/.test(url.hostname) && url.port === "" &&
  url.pathname.endsWith(".pem")

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g

/** The public keys of every certificate in a PEM text. */
const keysOf = (pem: string): Array<KeyObject> => (pem.match(PEM) ?? []).map((block) => new X509Certificate(block).publicKey)

/**
 * The certificates of `SES_SNS_CERTIFICATES` (one PEM file, or every .pem/.crt file of a directory), read once at
 * startup: every message is checked against them and nothing is fetched. Throws when none can be read.
 */
export const pinnedSnsCertificates = (path: string): SnsCertificates => {
  const files = statSync(path).isDirectory()
    ? readdirSync(path).filter((name) => /\.(pem|crt)$/i.test(name)).map((name) => join(path, name))
    : [path]
  const keys = files.flatMap((file) => keysOf(readFileSync(file, "utf8")))
  if (keys.length === 0) throw new Error(`no PEM certificate found in ${path}`)
  return () => Effect.succeed(keys)
}

/** How many fetched certificates are kept (SNS signs with a handful per region). */
const CACHE_SIZE = 32

/**
 * Certificates fetched from SigningCertURL over https (10 s timeout) and kept by URL; a failed fetch is not kept.
 * `fetchPem` is replaceable for tests.
 */
export const fetchedSnsCertificates = (
  fetchPem: (url: URL) => Promise<string> = async (url) => {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: "error" })
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    return response.text()
  }
): SnsCertificates => {
  const cache = new Map<string, ReadonlyArray<KeyObject>>()
  return (url) =>
    Effect.gen(function*() {
      const cached = cache.get(url.href)
      if (cached !== undefined) return cached
      const pem = yield* Effect.tryPromise({ try: () => fetchPem(url), catch: (error) => error as Error })
      const keys = yield* Effect.try({ try: () => keysOf(pem), catch: (error) => error as Error })
      if (keys.length === 0) return yield* Effect.fail(new Error("no certificate"))
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!)
      cache.set(url.href, keys)
      return keys
    })
}
