/**
 * Fault test: the sending process is SIGKILLed five times in the middle of a campaign and started again each time.
 * Nothing is lost, and the mails sent twice are at most what each killed process had handed to SMTP without its
 * outcome recorded: DELIVERY_CONCURRENCY per kill. After a kill the sends it held are picked up once their (short)
 * lease runs out.
 */
import { describe, expect, it } from "@effect/vitest"
import { type RigOptions, withRig } from "./faults.support.js"

const COUNT = 6_000
const KILLS = 5
const CONCURRENCY = 32

describe("delivery when the sending process is killed again and again", () => {
  const env = { DELIVERY_CONCURRENCY: String(CONCURRENCY), DELIVERY_LEASE_SECONDS: "3" }
  const cases: ReadonlyArray<readonly [string, RigOptions]> = [
    ["sqlite, workers in the server", { store: "sqlite", smtp: { replyDelayMs: 5 }, env }],
    ["postgres, 2 worker processes", { store: "postgres", workers: 2, smtp: { replyDelayMs: 5 }, env }]
  ]
  it.each(cases)("%s: kill -9 five times; duplicates within the in-flight bound, 0 missing, sent; the sent count always exact", async (_, options) =>
    withRig(options, async (rig) => {
      const { eligible, uuid } = await rig.campaign(COUNT)
      /** The campaign's sent count and its sent sends, read in one statement. */
      const counts = async () => {
        const [row] = await rig.query<{ counted: number; sent: number }>(`
          SELECT c.sent_to_number_of_subscribers AS counted,
                 (SELECT count(*) FROM ${rig.table("sends")} s WHERE s.campaign_id = c.id AND s.sent_at IS NOT NULL) AS sent
          FROM ${rig.table("campaigns")} c WHERE c.uuid = '${uuid}'`)
        return { counted: Number(row!.counted), sent: Number(row!.sent) }
      }
      await rig.send(uuid)
      const killedAt: Array<number> = []
      for (let kill = 0; kill < KILLS; kill++) {
        await rig.sink.waitFor((kill + 1) * Math.floor(COUNT / (KILLS + 2)), 90_000)
        killedAt.push(rig.sink.received.length)
        await rig.crash(kill % Math.max(1, rig.workers.length))
        const after = await counts()
        expect(after.counted, "the sent count grows while sending").toBeGreaterThan(0)
        expect(after.counted, "the sent count right after a kill").toBe(after.sent)
      }
      expect(killedAt.at(-1)!, "the campaign finished before the last kill: the test proves nothing").toBeLessThan(COUNT)
      await rig.waitForStatus(uuid, "sent", 120_000)
      const report = await rig.report(uuid, eligible)
      console.log(`[faults:crash ${options.store}] ${JSON.stringify(report)} killed at ${killedAt.join(", ")}`)
      expect(report).toMatchObject({ missing: 0, unexpected: 0 })
      expect(report.duplicates).toBeLessThanOrEqual(KILLS * CONCURRENCY)
      expect(report.mails - COUNT).toBeLessThanOrEqual(KILLS * CONCURRENCY)
      expect(report.sends).toMatchObject({ rows: COUNT, sent: COUNT, failed: 0, pending: 0 })
      expect(await counts()).toEqual({ counted: COUNT, sent: COUNT })
    }), 240_000)
})
