/**
 * A throwaway folder that looks like a fresh clone after `npm install`: the repository's manifests, packages and
 * node_modules linked in, its own ./data. `npm start` there behaves as in the real checkout without touching its data.
 */
import { mkdtempSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/** The repository's root folder. */
export const REPOSITORY = fileURLToPath(new URL("../../../", import.meta.url))

const LINKED = ["package.json", "package-lock.json", "node_modules", "packages", "scripts", "tsconfig.json", "tsconfig.base.json", "README.md"]

/** Makes the folder; `remove()` deletes it (the links only, never what they point at). */
export const repositoryCopy = (): { readonly dir: string; readonly remove: () => void } => {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-clone-"))
  for (const name of LINKED) symlinkSync(join(REPOSITORY, name), join(dir, name))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
