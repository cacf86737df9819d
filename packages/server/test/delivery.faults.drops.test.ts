/**
 * Fault test: the SMTP server drops the connection after it has the whole message (after the final "." of DATA, or
 * the BDAT chunk) but before its 250, for 2 % of the mails. The sender cannot know whether those arrived: Mailroom
 * records them as sent, marked uncertain, and never sends them again. Nobody gets a mail twice, nobody is missed.
 */
import { describe, expect, it } from "@effect/vitest"
import { type RigOptions, withRig } from "./faults.support.js"

const COUNT = 3_000
const everyFiftieth = ({ index, stage }: { readonly index: number; readonly stage: string }) =>
  stage === "message" && index % 50 === 7 ? { drop: true } as const : undefined

describe("delivery when the connection drops before the final reply", () => {
  const cases: ReadonlyArray<readonly [string, RigOptions]> = [
    ["sqlite, DATA, workers in the server", { store: "sqlite", smtp: { fault: everyFiftieth } }],
    ["postgres, BDAT, 2 worker processes", { store: "postgres", workers: 2, smtp: { chunking: true, fault: everyFiftieth } }]
  ]
  it.each(cases)("%s: 0 duplicates, 0 missing, the dropped ones sent and marked uncertain", async (_, options) =>
    withRig(options, async (rig) => {
      const { eligible, uuid } = await rig.campaign(COUNT)
      await rig.send(uuid)
      const sent = await rig.waitForStatus(uuid, "sent", 90_000)
      const report = await rig.report(uuid, eligible)
      console.log(`[faults:drops ${options.store}] ${JSON.stringify(report)} dropped=${rig.sink.dropped.message}`)
      expect(rig.sink.dropped.message).toBeGreaterThanOrEqual(COUNT / 50 - 2)
      expect(report).toMatchObject({ duplicates: 0, missing: 0, unexpected: 0, mails: COUNT })
      expect(report.sends).toEqual({ rows: COUNT, sent: COUNT, failed: 0, pending: 0, uncertain: rig.sink.dropped.message })
      expect(sent.sent_to_number_of_subscribers).toBe(String(COUNT))
      // the uncertainty is visible on the send and said in the logs
      const dropped = rig.sink.received.find((mail) => mail.unanswered)!.to[0]!
      const [row] = await rig.query<{ uuid: string }>(`SELECT uuid FROM ${rig.table("sends")} WHERE email = '${dropped}'`)
      const one = await rig.api.call("GET", `/api/sends/${row!.uuid}`)
      expect(one.body.data).toMatchObject({ delivery_uncertain: true, failure_reason: null })
      expect(one.body.data.sent_at).not.toBeNull()
      expect(rig.logs()).toMatch(/SMTP: \d+ mails whose outcome is unknown/)
    }), 150_000)
})
