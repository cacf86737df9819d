// Bundles the compiled server (packages/server/dist/main.js, from `tsc -b`) into one ES module,
// packages/server/dist/mailroom.mjs (and its chunks), which `npm start`, `npm run mailroom` and the container run: node then reads one
// file instead of ~1,500 modules, which halves the CPU time of every start and CLI call (README, "Set-up on a fresh machine").
// Skips the work when the bundle is newer than every compiled file.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { newestMtime } from "./mtimes.mjs"

const root = fileURLToPath(new URL("..", import.meta.url))
const entry = join(root, "packages/server/dist/main.js")
const outdir = join(root, "packages/server/dist")
const outfile = join(outdir, "mailroom.mjs")
const chunks = join(outdir, "chunks")

// @effect/platform's index re-exports HttpApiSwagger, whose module holds Swagger UI's 3.5 MB script; through that
// re-export every chunk reaches it and esbuild would place it in a chunk loaded at start-up. Mailroom imports it only
// from its own subpath in a module loaded on the first visit to /docs, so the re-export is dropped here.
const lazySwagger = {
  name: "lazy-swagger",
  setup(build) {
    build.onLoad({ filter: /@effect[\\/]platform[\\/]dist[\\/]esm[\\/]index\.js$/ }, (args) => ({
      contents: readFileSync(args.path, "utf8").replace(/^export \* as HttpApiSwagger from .*$/m, ""),
      resolveDir: dirname(args.path)
    }))
  }
}

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
    charset: "ascii",
    plugins: [lazySwagger],
    logLevel: "warning"
  })
  // esbuild leaves non-ASCII characters in comments and regular expressions; one of them above U+00FF makes V8 hold the
  // whole 2.6 MB source as a two-byte string. Escaping them keeps every chunk one byte per character in the heap.
  for (const file of [outfile, ...readdirSync(chunks).map((name) => join(chunks, name))]) {
    const text = readFileSync(file, "utf8")
    const ascii = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    if (ascii !== text) writeFileSync(file, ascii)
  }
}
