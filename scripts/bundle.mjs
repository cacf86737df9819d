// Bundles the compiled server (packages/server/dist/main.js, from `tsc -b`) into one ES module,
// packages/server/dist/mailroom.mjs (and its chunks), which `npm start`, `npm run mailroom` and the container run: node then reads one
// file instead of ~1,500 modules, which halves the CPU time of every start and CLI call (README, "Set-up on a fresh machine").
// Skips the work when the bundle is newer than every compiled file.
import { readdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { newestMtime } from "./mtimes.mjs"

const root = fileURLToPath(new URL("..", import.meta.url))
const entry = join(root, "packages/server/dist/main.js")
const outdir = join(root, "packages/server/dist")
const outfile = join(outdir, "mailroom.mjs")
const chunks = join(outdir, "chunks")

const compiled = Math.max(...readdirSync(join(root, "packages")).filter((name) => name !== "admin").map((name) =>
  newestMtime(join(root, "packages", name, "dist"), (path) => path.endsWith(".js"))
))
const bundled = newestMtime(outfile)

if (bundled <= compiled || process.argv.includes("--force")) {
  rmSync(chunks, { recursive: true, force: true })
  await build({
    entryPoints: { mailroom: entry },
    outdir,
    outExtension: { ".js": ".mjs" },
    // `serve` is imported on demand: a CLI call never parses the HTTP layers
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // native or optional modules stay outside: better-sqlite3 loads its .node binary, pg-native is never installed
    external: ["better-sqlite3", "pg-native"],
    banner: { js: "import { createRequire as __mailroomRequire } from 'node:module'; const require = __mailroomRequire(import.meta.url);" },
    logLevel: "warning"
  })
}
