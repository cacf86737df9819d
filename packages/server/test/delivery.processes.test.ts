/**
 * Acceptance test: one campaign to 20,000 subscribers delivered by THREE `mailroom worker` processes sharing one
 * Postgres schema, the API in a separate `serve` process with WORKERS=false. Every eligible address gets exactly one
 * mail, the suppressed and unsubscribed ones none, and the work is really shared between the worker processes.
 *
 * Each worker gets its own in-process SMTP sink (same code, different port): the union of the sinks is "the mail
 * server", and the per-sink counts show which process sent what. The sinks are FaultySmtpServers without faults: they
 * shrug off clients killed mid-message, so killing the workers in `finally` after a failure adds nothing to the report.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import {
  countRecipients,
  killAll,
  type MailroomProcess,
  startMailroom,
  startServe,
  tail,
  waitForCampaignStatus
} from "./processes.js"
import { seedSubscribersSql } from "./faults.support.js"
import { postgresSchema } from "./postgresSchema.js"
import { type FaultySmtpServer, startFaultySmtpServer } from "@mailroom/smtp/testing"

const TOKEN = "delivery-processes-token"
const SUBSCRIBED = 20_000
const UNSUBSCRIBED = 25
const UNCONFIRMED = 10
const SUPPRESSED = "user777@example.com"
const WORKER_COUNT = 3

describe("campaign delivery with several worker processes (postgres)", () => {
  it("three `mailroom worker` processes send 20,000 mails exactly once, suppressed and unsubscribed excluded", async () => {
    const pg = await postgresSchema("mailroom_delivery")
    const { query, schema } = pg
    const cwd = mkdtempSync(join(tmpdir(), "mailroom-delivery-pg-"))
    const sinks: Array<FaultySmtpServer> = []
    const procs: Array<MailroomProcess> = []
    try {
      for (let i = 0; i < WORKER_COUNT; i++) sinks.push(await startFaultySmtpServer())
      const databaseUrl = pg.urlVia()
      const common = { DATABASE_URL: databaseUrl, API_TOKEN: TOKEN, LOG_REQUESTS: "false", APP_URL: "https://mail.example.test" }

      const api = await startServe("serve(api)", { ...common, WORKERS: "false" }, cwd)
      procs.push(api.process)

      const list = await api.call("POST", "/api/email-lists", { name: "Delivery acceptance", default_from_email: "news@example.com" })
      expect(list.status, list.text).toBe(201)
      const listId = list.body.data.id as number
      expect(typeof listId).toBe("number")

      const table = `${schema}.subscribers`
      await query(seedSubscribersSql("postgres", table, listId, "user", SUBSCRIBED, "subscribed"))
      await query(seedSubscribersSql("postgres", table, listId, "gone", UNSUBSCRIBED, "unsubscribed"))
      await query(seedSubscribersSql("postgres", table, listId, "pending", UNCONFIRMED, "unconfirmed"))
      await query(`UPDATE ${schema}.email_lists SET active_subscribers_count = ${SUBSCRIBED}, unsubscribed_count = ${UNSUBSCRIBED},
                   unconfirmed_count = ${UNCONFIRMED} WHERE id = ${listId}`)
      await query(`ANALYZE ${schema}.subscribers`)

      const suppression = await api.call("POST", "/api/suppressions", { email: SUPPRESSED, reason: "manual" })
      expect(suppression.status, suppression.text).toBe(201)

      const created = await api.call("POST", "/api/campaigns", {
        name: "Twenty thousand",
        email_list_uuid: list.body.data.uuid,
        subject: "Hello {{ subscriber.first_name }}",
        html: `<p>Hi {{ subscriber.first_name }},</p><p><a href="https://example.com/offer?x=1">See the offer</a></p>`
      })
      expect(created.status, created.text).toBe(201)
      const campaignUuid = created.body.data.uuid as string

      const workers = sinks.map((sink, i) =>
        startMailroom(`worker${i + 1}`, "worker", {
          ...common,
          SMTP_URL: sink.url,
          DELIVERY_LEASE_SECONDS: "10"
        }, cwd)
      )
      procs.push(...workers)
      await Promise.all(workers.map((w) => w.waitForOutput(/Worker running/, 60_000)))

      const started = performance.now()
      const send = await api.call("POST", `/api/campaigns/${campaignUuid}/send`)
      expect(send.status, send.text).toBeLessThan(300)
      const sent = await waitForCampaignStatus(api, campaignUuid, "sent", 150_000, procs)
      const seconds = (performance.now() - started) / 1000

      // let any straggler (a duplicate would come late) reach the sinks before counting
      await new Promise((resolve) => setTimeout(resolve, 1500))
      const perWorker = sinks.map((sink) => sink.received.length)
      const all = sinks.flatMap((sink) => sink.received)
      const counts = countRecipients(all)
      const eligible = new Set(Array.from({ length: SUBSCRIBED }, (_, i) => `user${i + 1}@example.com`))
      eligible.delete(SUPPRESSED)
      const duplicates = [...counts].filter(([, n]) => n > 1).map(([address]) => address)
      const missing = [...eligible].filter((address) => !counts.has(address))
      const unexpected = [...counts.keys()].filter((address) => !eligible.has(address))
      console.log(
        `[processes-test] ${eligible.size} eligible, ${all.length} mails in ${seconds.toFixed(1)} s ` +
          `(${(all.length / seconds).toFixed(0)}/s) with ${WORKER_COUNT} workers; per worker ${perWorker.join(" / ")}; ` +
          `duplicates=${duplicates.length} missing=${missing.length} unexpected=${unexpected.length}`
      )

      expect(duplicates.slice(0, 10)).toEqual([])
      expect(missing.slice(0, 10)).toEqual([])
      expect(unexpected.slice(0, 10)).toEqual([])
      expect(counts.has(SUPPRESSED)).toBe(false)
      expect(all.length).toBe(eligible.size)
      // the work was shared: more than one worker process delivered mail
      expect(perWorker.filter((n) => n > 0).length).toBeGreaterThan(1)

      // the sends log: one row per eligible subscriber, every one sent
      const [campaignRow] = await query<{ id: number }>(`SELECT id FROM ${schema}.campaigns WHERE uuid = '${campaignUuid}'`)
      const campaignId = Number(campaignRow!.id)
      const [summary] = await query<{ rows: number; subscribers: number; sent: number; failed: number; pending: number }>(`
        SELECT count(*)::int AS rows, count(DISTINCT subscriber_id)::int AS subscribers,
               count(sent_at)::int AS sent, count(failed_at)::int AS failed,
               count(*) FILTER (WHERE sent_at IS NULL AND failed_at IS NULL)::int AS pending
        FROM ${schema}.sends WHERE campaign_id = ${campaignId}`)
      expect(summary).toEqual({ rows: eligible.size, subscribers: eligible.size, sent: eligible.size, failed: 0, pending: 0 })
      const [coverage] = await query<{ missing: number; extra: number }>(`
        SELECT
          (SELECT count(*)::int FROM ${schema}.subscribers s
            WHERE s.email_list_id = ${listId} AND s.status = 'subscribed' AND s.email <> '${SUPPRESSED}'
              AND NOT EXISTS (SELECT 1 FROM ${schema}.sends x WHERE x.campaign_id = ${campaignId} AND x.subscriber_id = s.id)) AS missing,
          (SELECT count(*)::int FROM ${schema}.sends x JOIN ${schema}.subscribers s ON s.id = x.subscriber_id
            WHERE x.campaign_id = ${campaignId} AND (s.status <> 'subscribed' OR s.email = '${SUPPRESSED}')) AS extra`)
      expect(coverage).toEqual({ missing: 0, extra: 0 })

      expect(sent.sent_to_number_of_subscribers).toBe(String(eligible.size))
      expect(sent.sent_at).not.toBeNull()
    } catch (error) {
      for (const proc of procs) console.log(`--- ${proc.name} (pid ${proc.pid}) log tail ---\n${tail(proc.output(), 15)}`)
      throw error
    } finally {
      await killAll()
      await Promise.all(sinks.map((sink) => sink.close()))
      await pg.drop()
      rmSync(cwd, { recursive: true, force: true })
    }
  }, 180_000)
})
