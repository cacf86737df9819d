import { accessSync, constants, mkdirSync, statSync } from "node:fs"
import { dirname, resolve } from "node:path"

/**
 * Creates `directory` level by level (never `mkdir -p`, whose loop does not end under /proc) and checks that it can be
 * written. Returns what is wrong, or undefined.
 */
export const directoryProblem = (directory: string): string | undefined => {
  const target = resolve(directory)
  const missing: Array<string> = []
  let existing = target
  for (;;) {
    try {
      if (!statSync(existing).isDirectory()) return `${existing} is not a directory`
      break
    } catch {
      const parent = dirname(existing)
      if (parent === existing || missing.length > 64) return `${target} cannot be created`
      missing.unshift(existing)
      existing = parent
    }
  }
  const reason = (error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code
    return code === "EACCES" || code === "EPERM" ? "permission denied" : code === "EROFS" ? "read-only file system" : code ?? String(error)
  }
  for (const level of missing) {
    try {
      mkdirSync(level)
    } catch (error) {
      return `${target} cannot be created (${reason(error)} at ${level})`
    }
  }
  try {
    accessSync(target, constants.W_OK)
    return undefined
  } catch (error) {
    return `${target} is not writable (${reason(error)})`
  }
}
