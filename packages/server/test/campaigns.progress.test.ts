/**
 * Campaign progress as a client sees it, with real processes and an SMTP server: a campaign slowed by DELIVERY_RATE
 * shows `sent_to_number_of_subscribers` growing while it sends; paused midway, the counts of its sends by
 * `filter[status]` add up to the recipients and the sent ones are the campaign's count and the mails that arrived;
 * resumed, it ends at the exact total.
 */
import { setTimeout as sleep } from "node:timers/promises"
import { describe, expect, it } from "@effect/vitest"
import { type Rig, withRig } from "./faults.support.js"

const COUNT = 300
const RATE = 100

/** The campaign's status and sent count, as GET /api/campaigns/{uuid} shows them. */
const progress = async (rig: Rig, uuid: string) => {
  const reply = await rig.api.call("GET", `/api/campaigns/${uuid}`)
  expect(reply.status).toBe(200)
  return { status: reply.body.data.status as string, sent: Number(reply.body.data.sent_to_number_of_subscribers) }
}

/** How many of the campaign's sends `GET /api/sends` finds with each `filter[status]`. */
const statusCounts = async (rig: Rig, uuid: string) => {
  const counts: Record<string, number> = {}
  for (const status of ["pending", "sent", "failed"]) {
    const reply = await rig.api.call("GET", `/api/sends?filter[campaign_uuid]=${uuid}&filter[status]=${status}&per_page=1`)
    expect(reply.status).toBe(200)
    counts[status] = reply.body.meta.total as number
  }
  return counts
}

describe.each(["sqlite", "postgres"] as const)("campaign progress on %s", (store) => {
  it(`DELIVERY_RATE=${RATE}: the sent count grows while sending, adds up with the sends by status when paused, ends exact`, () =>
    withRig({ store, workers: 1, env: { DELIVERY_RATE: String(RATE) } }, async (rig) => {
      const { uuid } = await rig.campaign(COUNT)
      await rig.send(uuid)
      const seen: Array<number> = []
      for (const until = Date.now() + 60_000; (seen.at(-1) ?? 0) === 0; await sleep(50)) {
        expect(Date.now(), "no mail was counted within 60 s").toBeLessThan(until)
        seen.push((await progress(rig, uuid)).sent)
      }
      expect((await rig.api.call("POST", `/api/campaigns/${uuid}/pause`)).status).toBe(204)
      // the mails already handed over are recorded shortly after the pause
      await sleep(1_500)
      const paused = await progress(rig, uuid)
      expect(paused.status).toBe("paused")
      expect(paused.sent).toBeGreaterThan(0)
      expect(paused.sent).toBeLessThan(COUNT)
      expect(await statusCounts(rig, uuid)).toEqual({ pending: COUNT - paused.sent, sent: paused.sent, failed: 0 })
      expect(rig.sink.received.length).toBe(paused.sent)

      expect((await rig.api.call("POST", `/api/campaigns/${uuid}/resume`)).status).toBe(204)
      const deadline = Date.now() + 60_000
      for (let now = await progress(rig, uuid); now.status !== "sent" && Date.now() < deadline; now = await progress(rig, uuid)) {
        seen.push(now.sent)
        await sleep(100)
      }
      const done = await rig.waitForStatus(uuid, "sent", 60_000)
      expect(done.sent_to_number_of_subscribers).toBe(String(COUNT))
      expect(await statusCounts(rig, uuid)).toEqual({ pending: 0, sent: COUNT, failed: 0 })
      expect(seen.filter((n) => n > paused.sent && n < COUNT).length, `counts seen: ${seen.join(", ")}`).toBeGreaterThan(0)
      expect([...seen].sort((a, b) => a - b)).toEqual(seen)
      const report = await rig.report(uuid, Array.from({ length: COUNT }, (_, i) => `user${i + 1}@example.com`))
      expect(report).toMatchObject({ mails: COUNT, duplicates: 0, missing: 0 })
    }), 180_000)
})
