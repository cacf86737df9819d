import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

/** The nearest package.json above this module that is @mailroom/server's: found from src, dist and the bundle's chunks. */
const version = (): string => {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let level = 0; level < 4; level++, dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string }
      if (manifest.name === "@mailroom/server" && typeof manifest.version === "string") return manifest.version
    } catch {
      continue
    }
  }
  return "unknown"
}

/** The version of this build (packages/server/package.json). */
export const serverVersion: string = version()
