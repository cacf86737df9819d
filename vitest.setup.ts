import { execFileSync } from "node:child_process"

/** Brings the server bundle up to date with the compiled packages before any process test spawns it. */
export default function setup(): void {
  execFileSync(process.execPath, ["scripts/bundle.mjs"], { stdio: "inherit" })
}
