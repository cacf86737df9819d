/**
 * Fault test: Postgres goes away in the middle of a campaign (every connection reset, new ones refused for 3 s, as
 * in a restart) while the SMTP server keeps taking mail. The workers keep what they sent until they can record it,
 * recover by themselves and say so in one line each way, without stack traces: no mail twice, none missing.
 */
import { describe, expect, it } from "@effect/vitest"
import { withRig } from "./faults.support.js"

const COUNT = 4_000

describe("delivery when the database restarts", () => {
  it("postgres, API and 2 worker processes through a proxy cut for 3 s: 0 duplicates, 0 missing, one line each way", () =>
    withRig({ store: "postgres", workers: 2, proxy: true, smtp: { replyDelayMs: 2 } }, async (rig) => {
      const { eligible, uuid } = await rig.campaign(COUNT)
      await rig.send(uuid)
      await rig.sink.waitFor(COUNT / 4, 90_000)
      const before = rig.sink.received.length
      await rig.proxy!.cut(3_000)
      const during = rig.sink.received.length
      await rig.waitForStatus(uuid, "sent", 120_000)
      const report = await rig.report(uuid, eligible)
      console.log(`[faults:database] ${JSON.stringify(report)} cut at ${before}, ${during - before} mails during the cut`)
      expect(before, "the campaign finished before the cut").toBeLessThan(COUNT)
      expect(report).toMatchObject({ duplicates: 0, missing: 0, unexpected: 0, mails: COUNT })
      expect(report.sends).toMatchObject({ rows: COUNT, sent: COUNT, failed: 0, pending: 0 })
      for (const worker of rig.workers) {
        const log = worker.output()
        expect(log, worker.name).toMatch(/failed, retrying until it works/)
        expect(log, worker.name).toMatch(/works again after/)
        expect(log, worker.name).not.toMatch(/^\s+at /m)
      }
    }), 180_000)
})
