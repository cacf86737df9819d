/**
 * Every bad setting ends `mailroom serve` with exit code 1 and one line naming the variable and the cause, before
 * anything happened (no migration, no half-open port); settings that work but are probably wrong are warnings.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { freePort, killAll, startMailroom, startServe } from "./processes.js"

const PG_URL = process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"
const pg = new URL(PG_URL)
const dir = mkdtempSync(join(tmpdir(), "mailroom-misconfig-"))
const RSA_KEY_NOT_PEM = "-----BEGIN PRIVATE KEY-----\\nbm90IGEga2V5\\n-----END PRIVATE KEY-----"

afterAll(async () => {
  await killAll()
  rmSync(dir, { recursive: true, force: true })
})

/** Runs `serve` with a fresh SQLite file (unless the env names a store) and returns its exit code and output. */
const serveWith = async (name: string, env: Record<string, string>) => {
  const database = join(dir, name, "mailroom.db")
  const proc = startMailroom(name, "serve", { DATABASE_URL: `sqlite:${database}`, PORT: String(await freePort()), ...env }, dir)
  const timer = setTimeout(() => proc.child.kill("SIGKILL"), 20_000)
  const { code } = await proc.exited
  clearTimeout(timer)
  return { code, lines: proc.output().trim().split("\n"), databaseCreated: existsSync(database) }
}

const withPgUrl = (change: (url: URL) => void) => {
  const url = new URL(PG_URL)
  change(url)
  return url.toString()
}

const cases: ReadonlyArray<readonly [string, () => Promise<Record<string, string>>, RegExp]> = [
  ["refused Postgres", async () => ({ DATABASE_URL: withPgUrl((u) => (u.port = String(pg.port === "1" ? 2 : 1))) }), /^DATABASE_URL: connection refused at /],
  ["unknown database", async () => ({ DATABASE_URL: withPgUrl((u) => (u.pathname = "/mailroom_no_such_db")) }), /^DATABASE_URL: database "mailroom_no_such_db" does not exist/],
  ["unknown database host", async () => ({ DATABASE_URL: withPgUrl((u) => (u.hostname = "no-such-host.invalid")) }), /^DATABASE_URL: host no-such-host\.invalid not found/],
  ["unknown store", async () => ({ DATABASE_URL: "mysql://localhost/x" }), /^DATABASE_URL: must be sqlite:PATH/],
  ["SQLite folder that cannot be made", async () => ({ DATABASE_URL: "sqlite:/proc/mailroom/x.db" }), /^DATABASE_URL: the database folder \/proc\/mailroom cannot be created/],
  ["outbox folder that cannot be made", async () => ({ OUTBOX_DIR: "/proc/mailroom-outbox" }), /^OUTBOX_DIR: \/proc\/mailroom-outbox cannot be created/],
  ["PORT that is not a port", async () => ({ PORT: "http" }), /^PORT: Expected a network port value but received "http"/],
  ["SMTP_URL with another scheme", async () => ({ SMTP_URL: "mail.example.com:587" }), /^SMTP_URL: must start with smtp:\/\/ or smtps:\/\//],
  ["SMTP_URL that is not a URL", async () => ({ SMTP_URL: "smtp://user:p@ss:word@" }), /^SMTP_URL: is not a valid URL/],
  ["DKIM key that is no key", async () => ({ DKIM_DOMAIN: "example.com", DKIM_SELECTOR: "s1", DKIM_PRIVATE_KEY: RSA_KEY_NOT_PEM }), /^DKIM_PRIVATE_KEY: /],
  ["boolean that is not one", async () => ({ WORKERS: "sometimes" }), /^WORKERS: Expected a boolean value/],
  ["lease out of range (a message naming its variable)", async () => ({ AUTOMATION_LEASE_SECONDS: "0" }), /^AUTOMATION_LEASE_SECONDS must be 1 or more$/],
  ["import batch out of range", async () => ({ IMPORT_BATCH_ROWS: "5" }), /^IMPORT_BATCH_ROWS: must be 0 \(the default, 10000\) or from 100 to 100000/],
  ["import window out of range", async () => ({ IMPORT_WINDOW_ROWS: "50" }), /^IMPORT_WINDOW_ROWS: must be 0 \(rows written in the CSV's order\) or from 1000 to 200000/]
]

describe("misconfiguration", () => {
  for (const [what, env, message] of cases) {
    it(`${what}: exit code 1 and one line naming the variable`, async () => {
      const result = await serveWith(what.replace(/\W+/g, "-"), await env())
      expect(result.lines.join("\n")).toMatch(message)
      expect(result.lines).toHaveLength(1)
      expect(result.code).toBe(1)
    })
  }

  it("PORT in use: exit code 1 before any migration ran", async () => {
    const port = await freePort()
    const holder: Server = createServer()
    await new Promise<void>((resolve) => holder.listen(port, "127.0.0.1", resolve))
    try {
      const result = await serveWith("port-in-use", { PORT: String(port) })
      expect(result.lines).toEqual([`PORT: ${port} is already in use on 127.0.0.1 (another Mailroom or program listens there; choose another PORT)`])
      expect(result.code).toBe(1)
      expect(result.databaseCreated).toBe(false)
    } finally {
      await new Promise((resolve) => holder.close(resolve))
    }
  })

  it("HOST that is not an address here: exit code 1", async () => {
    const result = await serveWith("bad-host", { HOST: "192.0.2.1" })
    expect(result.lines).toEqual(["HOST: 192.0.2.1 is not an address of this machine"])
    expect(result.code).toBe(1)
  })
})

describe("warnings", () => {
  it("a public HOST without APP_URL and an unreachable SMTP server are warnings; the server runs", async () => {
    const smtpPort = await freePort()
    const server = await startServe("warnings", {
      API_TOKEN: "warnings-token",
      DATABASE_URL: `sqlite:${join(dir, "warnings", "m.db")}`,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`
    }, dir)
    try {
      await server.process.waitForOutput(/SMTP_URL: cannot reach 127\.0\.0\.1:\d+ \(connection refused\)/)
      expect((await server.call("GET", "/api/email-lists")).status).toBe(200)
    } finally {
      await server.process.kill()
    }
    const open = startMailroom("open-host", "serve", {
      API_TOKEN: "t",
      HOST: "0.0.0.0",
      PORT: String(await freePort()),
      DATABASE_URL: `sqlite:${join(dir, "open-host", "m.db")}`
    }, dir)
    try {
      await open.waitForOutput(/APP_URL is not set: links in mails will point at http:\/\/0\.0\.0\.0:\d+/)
      await open.waitForOutput(/Mailroom is listening on http:\/\/127\.0\.0\.1:\d+/)
    } finally {
      await open.kill()
    }
  })
})
