import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, extname, join, relative, sep } from "node:path"
import { gzipSync } from "node:zlib"
import type { AdminAsset } from "@mailroom/http"

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".woff2": "font/woff2"
}

/** Where the built admin is (packages/admin/dist, found through the workspace link), or undefined. */
export const adminDirectory = (): string | undefined => {
  try {
    const directory = join(dirname(createRequire(import.meta.url).resolve("@mailroom/admin/package.json")), "dist")
    return existsSync(join(directory, "index.html")) ? directory : undefined
  } catch {
    return undefined
  }
}

const filesUnder = (directory: string): ReadonlyArray<string> =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(directory, entry.name)) : [join(directory, entry.name)]
  )

/** One file as the server sends it: its type, its bytes, gzipped when that helps, and its ETag. */
const assetOf = (path: string, name: string): AdminAsset => {
  const body = new Uint8Array(readFileSync(path))
  const contentType = TYPES[extname(path)] ?? "application/octet-stream"
  const packed = /^text\/|svg|json/.test(contentType) && body.length > 1024 ? new Uint8Array(gzipSync(body, { level: 9 })) : undefined
  return {
    contentType,
    body,
    gzip: packed !== undefined && packed.length < body.length ? packed : undefined,
    etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
    immutable: name.startsWith("assets/")
  }
}

/** The built admin's files by path below /admin, read once at start; undefined when it was not built. */
export const loadAdminAssets = (directory = adminDirectory()): ReadonlyMap<string, AdminAsset> | undefined => {
  if (directory === undefined) return undefined
  return new Map(filesUnder(directory).map((path) => {
    const name = relative(directory, path).split(sep).join("/")
    return [name, assetOf(path, name)] as const
  }))
}
