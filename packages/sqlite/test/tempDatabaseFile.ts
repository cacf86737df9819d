import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "@effect/vitest"

const dirs: Array<string> = []
// registered when a test file imports this module, so it runs after that file's tests
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A database file's path in a folder of its own, removed after the test file's tests. */
export const tempDatabaseFile = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(dir)
  return join(dir, "db.sqlite")
}
