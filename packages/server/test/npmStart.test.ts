/**
 * `npm start` as a container or a terminal runs it: the server answers within seconds, and SIGTERM or SIGINT sent to the
 * npm process reaches it, which stops gracefully, exits 0 and frees the port (no orphan keeps serving).
 */
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { freePort } from "./processes.js"
import { portIsFree, waitUntil } from "./portIsFree.js"
import { repositoryCopy } from "./repositoryCopy.js"

const clone = repositoryCopy()
const config = (JSON.parse(readFileSync(join(clone.dir, "package.json"), "utf8")) as { config: { node_flags: string; malloc_arena_max: string; malloc_mmap_threshold: string } }).config
afterAll(() => clone.remove())

const npmStartThenSignal = async (signal: NodeJS.Signals) => {
  const port = await freePort()
  const env: Record<string, string | undefined> = { ...process.env, PORT: String(port), API_TOKEN: "npm-start-token" }
  for (const key of ["DATABASE_URL", "SMTP_URL", "OUTBOX_DIR", "HOST", "APP_URL", "WORKERS", "MALLOC_ARENA_MAX", "MALLOC_MMAP_THRESHOLD_"]) delete env[key]
  // npm leads its own process group, so a failing test can kill the server npm started along with npm
  const npm = spawn("npm", ["start"], { cwd: clone.dir, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  let output = ""
  npm.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
  npm.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => npm.once("exit", resolve))
  try {
    await waitUntil(async () => output.includes("Mailroom is listening on"), 60_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${output}`)
    })
    const answer = await fetch(`http://127.0.0.1:${port}/api/email-lists`, { headers: { authorization: "Bearer npm-start-token" } })
    expect(answer.status).toBe(200)
    expect(output).toMatch(/docs http:\/\/127\.0\.0\.1:\d+\/docs/)
    // node runs with the heap settings and malloc settings of package.json's config (README, "Memory"), and the server
    // collects its heap itself when idle (config's --expose-gc)
    expect(config.malloc_arena_max).toMatch(/^\d+$/)
    expect(config.malloc_mmap_threshold).toMatch(/^\d+$/)
    expect(output).toContain(`heap settings: ${config.node_flags}, malloc arenas: ${config.malloc_arena_max}, ` +
      `malloc mmap threshold: ${config.malloc_mmap_threshold}, heap collected: every 30s when idle`)
    npm.kill(signal)
    expect(await exited, output).toBe(0)
    await waitUntil(() => portIsFree(port), 10_000)
  } finally {
    try {
      process.kill(-npm.pid!, "SIGKILL")
    } catch {
      // the group has exited already
    }
  }
}

describe("npm start", () => {
  it("SIGTERM to npm stops the server: exit code 0, port free", () => npmStartThenSignal("SIGTERM"), 90_000)
  it("SIGINT (Ctrl-C) to npm stops the server: exit code 0, port free", () => npmStartThenSignal("SIGINT"), 90_000)
})
