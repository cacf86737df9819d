/**
 * Operations through real processes per store: the landing page, /healthz, /readyz, /metrics after a campaign send,
 * JSON logs with the campaign's start and end lines, METRICS_TOKEN, LOG_LEVEL=warn with an SMTP server that refuses
 * connections, and /readyz answering 503 while Postgres is cut off.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { apiCall, freePort, killAll, type ServeProcess, startServe, waitForCampaignStatus } from "./processes.js"
import { PG_URL, type PostgresSchema, postgresSchema } from "./postgresSchema.js"
import { startTcpProxy } from "./TcpProxy.js"

const TOKEN = "operations-token"
const stores = ["sqlite", "postgres"] as const

const dirs: Array<string> = []
const schemas: Array<PostgresSchema> = []
afterAll(async () => {
  await killAll()
  for (const schema of schemas) await schema.drop()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A fresh database of `store`: a SQLite file, or a Postgres URL (through `url`) on a schema of its own. */
const databaseUrl = async (store: (typeof stores)[number], dir: string, url = PG_URL) => {
  if (store === "sqlite") return `sqlite:${join(dir, "mailroom.db")}`
  const schema = await postgresSchema("mailroom_ops")
  schemas.push(schema)
  return schema.urlVia(url)
}

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-ops-"))
  dirs.push(dir)
  return dir
}

const get = async (server: ServeProcess, path: string, token?: string) => {
  const response = await fetch(`${server.url}${path}`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } })
  const text = await response.text()
  return { status: response.status, type: response.headers.get("content-type") ?? "", text }
}

/** The value of one sample of the Prometheus text, e.g. `mailroom_pending_sends{kind="campaign"}`; undefined when absent. */
const sample = (metrics: string, series: string): number | undefined => {
  const line = metrics.split("\n").find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

/** A campaign to `emails` on a new list, sent: its uuid and the status the send request was answered with. */
const sendCampaign = async (server: ServeProcess, emails: ReadonlyArray<string>) => {
  const list = await server.call("POST", "/api/email-lists", { name: "Ops", default_from_email: "news@example.com" })
  expect(list.status, list.text).toBe(201)
  for (const email of emails) {
    const created = await server.call("POST", `/api/email-lists/${list.body.data.uuid}/subscribers`, { email })
    expect(created.status, created.text).toBe(201)
  }
  const campaign = await server.call("POST", "/api/campaigns", {
    name: "Ops",
    email_list_uuid: list.body.data.uuid,
    subject: "Hello",
    html: "<p>Hello</p>"
  })
  expect(campaign.status, campaign.text).toBe(201)
  const uuid = campaign.body.data.uuid as string
  const sent = await server.call("POST", `/api/campaigns/${uuid}/send`)
  expect(sent.status, sent.text).toBeLessThan(300)
  return { uuid, sent: sent.status }
}

describe.each(stores)("operations (%s, real process)", (store) => {
  it("/, /healthz and /readyz without a token; /metrics after a send; JSON logs with the campaign's and an import's lines", async () => {
    const dir = tempDir()
    const server = await startServe(`serve(${store})`, {
      DATABASE_URL: await databaseUrl(store, dir),
      API_TOKEN: TOKEN,
      LOG_FORMAT: "json",
      OUTBOX_DIR: join(dir, "outbox")
    }, dir)

    const landing = await get(server, "/")
    expect(landing.status).toBe(200)
    expect(landing.type).toContain("text/html")
    for (const text of ["Mailroom", 'href="/docs"', 'href="/api/openapi.json"', 'href="/healthz"', "npm run mailroom -- token:create --name me"]) {
      expect(landing.text).toContain(text)
    }
    expect(await get(server, "/healthz")).toMatchObject({ status: 200, text: '{"status":"ok"}' })
    const ready = await get(server, "/readyz")
    expect(ready.status, ready.text).toBe(200)
    expect(JSON.parse(ready.text)).toEqual({ status: "ok", checks: { database: "ok", migrations: "ok", workers: "ok" } })

    expect(await get(server, "/metrics")).toMatchObject({ status: 401, text: '{"message":"Unauthorized."}' })
    expect(await get(server, "/metrics", "not-a-token")).toMatchObject({ status: 401 })

    const emails = ["ada@example.com", "bob@example.com", "cy@example.com"]
    const { sent, uuid } = await sendCampaign(server, emails)
    await waitForCampaignStatus(server, uuid, "sent", 60_000)
    await server.call("GET", `/api/campaigns/${uuid}`)

    const metrics = await get(server, "/metrics", TOKEN)
    expect(metrics.status).toBe(200)
    expect(metrics.type).toContain("text/plain")
    expect(sample(metrics.text, 'mailroom_mails_sent_total{kind="campaign"}')).toBe(emails.length)
    expect(sample(metrics.text, 'mailroom_mails_failed_total{kind="campaign"}')).toBe(0)
    expect(sample(metrics.text, 'mailroom_pending_sends{kind="campaign"}')).toBe(0)
    expect(sample(metrics.text, "mailroom_pending_jobs")).toBe(0)
    expect(sample(metrics.text, 'mailroom_imports{state="queued"}')).toBe(0)
    expect(sample(metrics.text, `mailroom_http_requests_total{method="POST",route="/api/campaigns/:campaign/send",status="${sent}"}`)).toBe(1)
    expect(sample(metrics.text, 'mailroom_http_requests_total{method="GET",route="/api/campaigns/:campaign",status="200"}')).toBeGreaterThanOrEqual(1)
    // the route template, never the raw path
    expect(metrics.text).not.toContain(uuid)
    expect(metrics.text).toMatch(/^mailroom_http_request_duration_seconds_bucket\{/m)

    const list = await server.call("POST", "/api/email-lists", { name: "Imported", default_from_email: "news@example.com" })
    const draft = await server.call("POST", "/api/subscriber-imports", {
      subscribers_csv: "email\nimp1@example.com\nimp2@example.com\nnot-an-address\n",
      email_list_id: list.body.data.id,
      subscribe_unsubscribed: false,
      unsubscribe_others: false
    })
    const importId = draft.body.data.id as number
    expect((await server.call("POST", `/api/subscriber-imports/${importId}/start`)).status).toBe(204)
    for (let i = 0; i < 200 && (await server.call("GET", `/api/subscriber-imports/${importId}`)).body.data.status !== "completed"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }

    const lines = server.process.output().split("\n").filter((line) => line.trim() !== "")
    const logs = lines.map((line) => JSON.parse(line) as { time: string; level: string; message: string; annotations: Record<string, unknown> })
    for (const log of logs) expect(Object.keys(log)).toEqual(expect.arrayContaining(["time", "level", "message", "annotations"]))
    const ofCampaign = logs.filter((log) => log.annotations["campaign"] === uuid)
    expect(ofCampaign.find((log) => log.message.includes("started"))).toMatchObject({ level: "info", annotations: { recipients: 3 } })
    expect(ofCampaign.find((log) => log.message.includes("sent to 3 subscribers"))).toMatchObject({
      level: "info",
      annotations: { campaign: uuid, sent: 3, failed: 0, subscribers: 3 }
    })
    const ofImport = logs.filter((log) => log.annotations["import"] === String(importId))
    expect(ofImport.find((log) => log.message.includes("started"))).toMatchObject({ level: "info" })
    expect(ofImport.find((log) => log.message.includes("completed"))).toMatchObject({
      level: "info",
      annotations: { rows: 3, errors: 1, imported: 2 }
    })
    expect(logs.some((log) => log.annotations["http.url"] === "/healthz")).toBe(true)
  }, 120_000)
})

describe("operations (sqlite, real process): METRICS_TOKEN, LOG_LEVEL=warn, an SMTP server that refuses connections", () => {
  it("takes only METRICS_TOKEN on /metrics, logs no info line and warns of the refused SMTP connections", async () => {
    const dir = tempDir()
    // a port nothing listens on: every connection is refused
    const closed = await freePort()
    const server = await startServe("serve(warn)", {
      DATABASE_URL: await databaseUrl("sqlite", dir),
      API_TOKEN: TOKEN,
      METRICS_TOKEN: "metrics-secret",
      LOG_LEVEL: "warn",
      SMTP_URL: `smtp://127.0.0.1:${closed}`
    }, dir)
    expect((await get(server, "/metrics", "metrics-secret")).status).toBe(200)
    expect(await get(server, "/metrics", TOKEN)).toMatchObject({ status: 401, text: '{"message":"Unauthorized."}' })

    await sendCampaign(server, ["ada@example.com", "bob@example.com"])
    await server.process.waitForOutput(new RegExp(`SMTP connection to 127\\.0\\.0\\.1:${closed} failed`), 30_000)
    const output = server.process.output()
    expect(output.match(/SMTP connection to .* failed/g)?.length).toBe(1)
    expect(output).not.toMatch(/INFO|Listening on|Sent HTTP response|Campaign .* started/)
    expect(output).toContain("WARN")
    await server.process.kill()
  }, 120_000)
})

describe("operations (postgres, real process): /readyz while the database is cut off", () => {
  it("answers 503 naming the database, then 200 again once it is back", async () => {
    const dir = tempDir()
    const upstream = new URL(PG_URL)
    const proxy = await startTcpProxy(upstream.hostname, Number(upstream.port || 5432))
    try {
      const proxied = new URL(PG_URL)
      proxied.hostname = "127.0.0.1"
      proxied.port = String(proxy.port)
      const server = await startServe("serve(pg-proxy)", {
        DATABASE_URL: await databaseUrl("postgres", dir, proxied.toString()),
        API_TOKEN: TOKEN,
        LOG_REQUESTS: "false"
      }, dir)
      expect((await get(server, "/readyz")).status).toBe(200)
      const cut = proxy.cut(6_000)
      await sleep(200)
      const down = await get(server, "/readyz")
      expect(down.status, down.text).toBe(503)
      const body = JSON.parse(down.text) as { status: string; checks: Record<string, string> }
      expect(body.status).toBe("unavailable")
      expect(body.checks["database"]).toMatch(/^unreachable/)
      expect((await get(server, "/healthz")).status).toBe(200)
      await cut
      let back = 0
      for (let i = 0; i < 50 && back !== 200; i++) {
        back = (await get(server, "/readyz")).status
        if (back !== 200) await sleep(200)
      }
      expect(back).toBe(200)
      expect((await apiCall(server.url, TOKEN, "GET", "/api/email-lists")).status).toBe(200)
    } finally {
      await killAll()
      await proxy.close()
    }
  }, 120_000)
})
