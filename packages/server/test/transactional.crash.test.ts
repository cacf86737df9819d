/**
 * Fault test: transactional mails are durable once answered. A `serve` without workers accepts mails and is SIGKILLed
 * before any is delivered: the workers started afterwards deliver every one exactly once. And a process killed while
 * it delivers (a slow SMTP server) loses none: after the restart every mail arrives, sent twice at most what it had
 * handed over without its outcome recorded (DELIVERY_CONCURRENCY).
 */
import { describe, expect, it } from "@effect/vitest"
import { type Rig, withRig } from "./faults.support.js"

const COUNT = 40
const CONCURRENCY = 4

/** Sends `COUNT` transactional mails (10 at a time), each to its own address; the log uuids. */
const sendMails = async (rig: Rig, prefix: string): Promise<Array<string>> => {
  const uuids: Array<string> = []
  for (let start = 0; start < COUNT; start += 10) {
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      rig.api.call("POST", "/api/transactional-mails/send", {
        from: "Shop <shop@example.com>",
        to: `${prefix}${start + i}@example.com`,
        subject: "Your code {{ code }}",
        html: "<p>Your code is <b>{{ code }}</b></p>",
        replacements: { code: start + i }
      })))
    for (const reply of replies) {
      expect(reply.status, reply.text).toBe(200)
      uuids.push(reply.body.uuid)
    }
  }
  return uuids
}

/** Waits until every mail of the log is sent; the statuses otherwise. */
const waitAllSent = async (rig: Rig, uuids: ReadonlyArray<string>, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  let statuses: Array<string> = []
  while (Date.now() < deadline) {
    statuses = await Promise.all(uuids.map(async (uuid) => (await rig.api.call("GET", `/api/transactional-mails/${uuid}`)).body?.data?.status))
    if (statuses.every((status) => status === "sent")) return statuses
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return statuses
}

describe.each(["sqlite", "postgres"] as const)("transactional mails when the process dies (%s)", (store) => {
  it("accepted, then SIGKILL before delivery: the workers deliver every mail exactly once", async () =>
    withRig({ store, workers: store === "postgres" ? 1 : 0, apiWorkers: false }, async (rig) => {
      if (store === "postgres") await rig.workers[0]!.kill("SIGKILL")
      const uuids = await sendMails(rig, "accepted")
      expect(rig.sink.received).toHaveLength(0)
      if (store === "postgres") {
        await rig.api.process.kill("SIGKILL")
        await rig.startWorker(0)
        await rig.restartApi(false)
      } else {
        await rig.restartApi(true)
      }
      await rig.sink.waitFor(COUNT, 60_000)
      expect(await waitAllSent(rig, uuids, 30_000)).toEqual(uuids.map(() => "sent"))
      await new Promise((resolve) => setTimeout(resolve, 500))
      const counts = rig.sink.counts()
      expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([])
      expect(counts.size).toBe(COUNT)
      const one = rig.sink.received.find((mail) => mail.to.includes("accepted7@example.com"))!
      expect(one.raw).toContain("Subject: Your code 7")
    }), 180_000)

  it("SIGKILL while delivering to a slow SMTP server: nothing lost, duplicates within the in-flight bound", async () =>
    withRig({
      store,
      workers: store === "postgres" ? 1 : 0,
      smtp: { replyDelayMs: 100 },
      env: { DELIVERY_CONCURRENCY: String(CONCURRENCY), DELIVERY_LEASE_SECONDS: "2" }
    }, async (rig) => {
      const uuids = await sendMails(rig, "inflight")
      await rig.sink.waitFor(3, 30_000)
      const before = rig.sink.received.length
      await rig.crash(0)
      expect(before, "everything was sent before the kill: the test proves nothing").toBeLessThan(COUNT)
      expect(await waitAllSent(rig, uuids, 90_000)).toEqual(uuids.map(() => "sent"))
      const counts = rig.sink.counts()
      expect(counts.size).toBe(COUNT)
      expect([...counts.values()].filter((n) => n > 1).length).toBeLessThanOrEqual(CONCURRENCY)
    }), 180_000)
})
