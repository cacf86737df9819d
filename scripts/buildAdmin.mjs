// Builds the web admin (packages/admin, Preact + Vite) into packages/admin/dist, which the server serves under /admin.
// Skips the work when dist/index.html is newer than every source file of the admin, so `npm start` stays fast.
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { newestMtime } from "./mtimes.mjs"

const root = fileURLToPath(new URL("../packages/admin", import.meta.url))

const built = newestMtime(join(root, "dist/index.html"))
const sources = Math.max(...["src", "index.html", "vite.config.ts", "package.json"].map((name) => newestMtime(join(root, name))))

if (built < sources) {
  const { build } = await import("vite")
  const started = Date.now()
  await build({ root, configFile: join(root, "vite.config.ts"), logLevel: "warn" })
  console.log(`admin: built packages/admin/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}
