/**
 * Fault test: a slow MTA (every reply late) with three worker processes and a lease far shorter than the time a mail
 * waits behind the SMTP connections. The leases are renewed while the mails wait, so no other worker takes them:
 * nobody gets a mail twice, although nothing crashed.
 */
import { describe, expect, it } from "@effect/vitest"
import { withRig } from "./faults.support.js"

const COUNT = 600

describe("delivery through a slow MTA", () => {
  it("postgres, 3 worker processes, 100 ms per reply, 2 s leases: 0 duplicates, 0 missing", () =>
    withRig({
      store: "postgres",
      workers: 3,
      smtp: { replyDelayMs: 100 },
      env: { DELIVERY_LEASE_SECONDS: "2" }
    }, async (rig) => {
      const { eligible, uuid } = await rig.campaign(COUNT)
      const started = performance.now()
      await rig.send(uuid)
      await rig.waitForStatus(uuid, "sent", 120_000)
      const report = await rig.report(uuid, eligible)
      console.log(`[faults:slow] ${JSON.stringify(report)} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
      expect(report).toMatchObject({ duplicates: 0, missing: 0, unexpected: 0, mails: COUNT })
      expect(report.sends).toMatchObject({ rows: COUNT, sent: COUNT, pending: 0 })
    }), 180_000)
})
