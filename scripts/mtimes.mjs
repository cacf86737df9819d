// Modification times for the build scripts' "is it up to date?" checks.
import { readdirSync, statSync } from "node:fs"
import { join } from "node:path"

/** The newest modification time (ms) of a file, or of the files below a folder that `accept` takes; 0 when missing. */
export const newestMtime = (path, accept = () => true) => {
  let stat
  try {
    stat = statSync(path)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return accept(path) ? stat.mtimeMs : 0
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name), accept)))
}
