/**
 * The README's quickstart, run as written (after `npm install`, which the test run has done) in a folder that looks
 * like a fresh clone, on a free port instead of 3000: from `npm start` to the campaign's mail in ./data/outbox and a
 * server that is gone after `kill %1`.
 */
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { freePort } from "./processes.js"
import { portIsFree, waitUntil } from "./portIsFree.js"
import { REPOSITORY, repositoryCopy } from "./repositoryCopy.js"

const clone = repositoryCopy()
afterAll(() => clone.remove())

/** The shell blocks between the README's quickstart markers, without the `npm install` line. */
const quickstart = (port: number): string => {
  const readme = readFileSync(join(REPOSITORY, "README.md"), "utf8")
  const section = readme.slice(readme.indexOf("<!-- quickstart -->"), readme.indexOf("<!-- /quickstart -->"))
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!)
  expect(blocks.length).toBeGreaterThanOrEqual(2)
  return blocks.join("\n").split("\n").filter((line) => !/^npm install\b/.test(line)).join("\n").replaceAll("localhost:3000", `localhost:${port}`)
}

describe("README quickstart", () => {
  it("runs as pasted: a list, a subscriber, a campaign sent into the outbox, the server stopped", async () => {
    const port = await freePort()
    const env: Record<string, string | undefined> = { ...process.env, PORT: String(port) }
    for (const key of ["DATABASE_URL", "API_TOKEN", "SMTP_URL", "OUTBOX_DIR", "HOST", "APP_URL", "WORKERS"]) delete env[key]
    const child = spawn("bash", ["-e", "-c", quickstart(port)], { cwd: clone.dir, env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), 150_000)
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve))
    clearTimeout(timer)
    expect(code, output).toBe(0)
    expect(output).toMatch(/"subscribed_at": "\d{4}-/)
    expect(output).toMatch(/"sent_at": "\d{4}-\d\d-\d\dT/)
    expect(output).toContain("Subject: Hello Ada")
    await waitUntil(() => portIsFree(port), 15_000)
  }, 180_000)
})
