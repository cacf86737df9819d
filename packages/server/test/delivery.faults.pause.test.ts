/**
 * Fault test: pause means pause. Once `pause` answers 204, at most the mails already handed to SMTP go out (at most
 * DELIVERY_CONCURRENCY per process), claimed but unsent sends are given back at once, also by the other worker
 * processes; a process killed 100 ms after the pause and started again, then a resume, finish the campaign with at
 * most its in-flight mails twice.
 */
import { describe, expect, it } from "@effect/vitest"
import { setTimeout as sleep } from "node:timers/promises"
import { type RigOptions, withRig } from "./faults.support.js"

const COUNT = 4_000
const CONCURRENCY = 32

describe("pause while sending", () => {
  const env = { DELIVERY_CONCURRENCY: String(CONCURRENCY), DELIVERY_LEASE_SECONDS: "3" }
  const cases: ReadonlyArray<readonly [string, RigOptions, number]> = [
    ["sqlite, workers in the server", { store: "sqlite", smtp: { replyDelayMs: 3 }, env }, 1],
    ["postgres, 2 worker processes", { store: "postgres", workers: 2, smtp: { replyDelayMs: 3 }, env }, 2]
  ]
  it.each(cases)("%s: after the 204 at most the in-flight mails go out; kill -9, restart and resume finish it", async (_, options, senders) =>
    withRig(options, async (rig) => {
      const { eligible, uuid } = await rig.campaign(COUNT)
      await rig.send(uuid)
      await rig.sink.waitFor(COUNT / 5, 90_000)
      const paused = await rig.api.call("POST", `/api/campaigns/${uuid}/pause`)
      expect(paused.status, paused.text).toBe(204)
      const atPause = rig.sink.received.length
      await sleep(100)
      await rig.crash(0)
      await sleep(1_500)
      const afterPause = rig.sink.received.length - atPause
      const held = await rig.query<{ held: number }>(
        `SELECT count(*) AS held FROM ${rig.table("sends")} WHERE locked_until IS NOT NULL AND sent_at IS NULL AND failed_at IS NULL`
      )
      console.log(`[faults:pause ${options.store}] ${afterPause} mails after the 204, ${Number(held[0]!.held)} sends still leased`)
      expect(afterPause).toBeLessThanOrEqual(senders * CONCURRENCY)
      expect(atPause + afterPause, "the campaign finished before the pause").toBeLessThan(COUNT)
      // the surviving workers gave back what they held; the killed one's leases run out by themselves
      if (senders > 1) expect(Number(held[0]!.held)).toBeLessThanOrEqual(CONCURRENCY + 100)
      expect((await rig.api.call("GET", `/api/campaigns/${uuid}`)).body.data.status).toBe("paused")

      const resumed = await rig.api.call("POST", `/api/campaigns/${uuid}/resume`)
      expect(resumed.status, resumed.text).toBe(204)
      await rig.waitForStatus(uuid, "sent", 120_000)
      const report = await rig.report(uuid, eligible)
      console.log(`[faults:pause ${options.store}] ${JSON.stringify(report)}`)
      expect(report).toMatchObject({ missing: 0, unexpected: 0 })
      expect(report.duplicates).toBeLessThanOrEqual(CONCURRENCY)
      expect(report.sends).toMatchObject({ rows: COUNT, sent: COUNT, pending: 0 })
    }), 180_000)
})
