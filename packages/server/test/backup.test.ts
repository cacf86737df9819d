/** `mailroom backup FILE` copies a live SQLite database (the server keeps running) into a file SQLite opens whole. */
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import Database from "better-sqlite3"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { killAll, MAIN, startServe } from "./processes.js"

const run = promisify(execFile)
const dir = mkdtempSync(join(tmpdir(), "mailroom-backup-"))
afterAll(async () => {
  await killAll()
  rmSync(dir, { recursive: true, force: true })
})

const cli = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  run(process.execPath, [MAIN, ...args], { cwd: dir, env: { ...process.env, ...env } }).then(
    ({ stderr, stdout }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr })
  )

describe("mailroom backup", () => {
  it("copies the database while the server runs; refuses to overwrite and names pg_dump for Postgres", async () => {
    const database = `sqlite:${join(dir, "live.db")}`
    const server = await startServe("backup", { API_TOKEN: "backup-token", DATABASE_URL: database }, dir)
    const created = await server.call("POST", "/api/email-lists", { name: "Kept", default_from_email: "kept@example.com" })
    expect(created.status).toBe(201)
    const file = join(dir, "copy.db")
    const first = await cli(["backup", file], { DATABASE_URL: database })
    expect(first.output).toMatch(/^Backed up \d+ pages to .*copy\.db\.\n$/)
    expect(first.code).toBe(0)
    const copy = new Database(file, { readonly: true })
    expect(copy.prepare("SELECT name FROM email_lists").all()).toEqual([{ name: "Kept" }])
    expect(copy.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" })
    copy.close()
    expect((await server.call("GET", "/api/email-lists")).status).toBe(200)
    await server.process.kill("SIGTERM")

    const again = await cli(["backup", file], { DATABASE_URL: database })
    expect(again).toEqual({ code: 1, output: `backup: ${file} exists; name a new file\n` })
    const postgres = await cli(["backup", join(dir, "pg.db")], { DATABASE_URL: "postgres://postgres@127.0.0.1:1/x" })
    expect(postgres.code).toBe(1)
    expect(postgres.output).toMatch(/pg_dump/)
  }, 60_000)
})
