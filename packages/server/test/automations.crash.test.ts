/**
 * Fault test: automation mails survive a crash. A list of 200 subscribers enters a started automation (a `date`
 * trigger in the past: everyone at once) that sends mail A, tags, then sends mail B. The process doing the work is
 * SIGKILLed while the mails go out to a slow SMTP server, and started again. Afterwards, through the API: every
 * subscriber's position is `completed` (nobody stuck), there is exactly one Send per subscriber per mail (never a
 * duplicate Send) and every Send is sent, everyone is tagged; the SMTP server got A and B for everyone, and the
 * addresses that got a mail twice are at most what was handed over and not recorded at the kill (DELIVERY_CONCURRENCY).
 * A second flow puts a webhook action (a slow receiver) between the mails and kills the process while the scheduler
 * posts the webhooks, its step not committed: once the claim's lease (AUTOMATION_LEASE_SECONDS, 10 s here) ends the
 * step is done again, every webhook is posted (again with the same webhook-id for those posted before the kill), and
 * still one Send per subscriber per mail.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { type Rig, seedSubscribersSql, withRig } from "./faults.support.js"

const COUNT = 200
const CONCURRENCY = 4
/** Short leases, so work held at the kill comes back within seconds. */
const LEASES = { DELIVERY_CONCURRENCY: String(CONCURRENCY), DELIVERY_LEASE_SECONDS: "2", AUTOMATION_LEASE_SECONDS: "10" }

/** Every item of a collection path, page by page. */
const collect = async (rig: Rig, path: string): Promise<Array<any>> => {
  const items: Array<any> = []
  for (let page = 1; ; page++) {
    const r = await rig.api.call("GET", `${path}${path.includes("?") ? "&" : "?"}per_page=100&page=${page}`)
    expect(r.status, r.text).toBe(200)
    items.push(...r.body.data)
    if (page >= r.body.meta.last_page) return items
  }
}

/** How many times each address got each mail ("A" or "B"), as `address kind` → count. */
const received = (rig: Rig): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const mail of rig.sink.received) {
    const kind = /^Subject: ([AB]) for /m.exec(mail.raw)?.[1] ?? "?"
    for (const to of mail.to) counts.set(`${to.toLowerCase()} ${kind}`, (counts.get(`${to.toLowerCase()} ${kind}`) ?? 0) + 1)
  }
  return counts
}

const until = async (check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return check()
}

/** A webhook endpoint answering 200 after `delayMs`; the subscriber uuid of every request, by webhook-id. */
const slowReceiver = async (delayMs: number) => {
  const requests: Array<{ readonly id: string; readonly subscriber: string }> = []
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
      requests.push({ id: String(request.headers["webhook-id"]), subscriber: body.data.subscriber.uuid })
      setTimeout(() => response.writeHead(200).end("ok"), delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  }
}

/** A list of COUNT subscribed members `member<i>@example.com` and mails A and B; their uuids. */
const setUp = async (rig: Rig, store: "sqlite" | "postgres") => {
  const list = await rig.api.call("POST", "/api/email-lists", { name: "Crash", default_from_email: "news@example.com" })
  expect(list.status, list.text).toBe(201)
  await rig.query(seedSubscribersSql(store, rig.table("subscribers"), list.body.data.id, "member", COUNT, "subscribed"))
  await rig.query(`UPDATE ${rig.table("email_lists")} SET active_subscribers_count = ${COUNT} WHERE id = ${list.body.data.id}`)
  const mail = async (kind: string) => {
    const r = await rig.api.call("POST", "/api/automation-mails", { name: `Mail ${kind}`, subject: `${kind} for {{ subscriber.first_name }}`, html: `<p>${kind}</p>` })
    expect(r.status, r.text).toBe(201)
    return r.body.data.uuid as string
  }
  return { list: list.body.data.uuid as string, a: await mail("A"), b: await mail("B") }
}

/** Creates and starts an automation enrolling the whole list at once (a date in the past); its uuid. */
const startFlow = async (rig: Rig, list: string, actions: ReadonlyArray<unknown>) => {
  const created = await rig.api.call("POST", "/api/automations", {
    name: "Crash flow",
    email_list_uuid: list,
    trigger: { type: "date", at: "2020-01-01 00:00:00" },
    actions
  })
  expect(created.status, created.text).toBe(201)
  const uuid = created.body.data.uuid as string
  const started = await rig.api.call("POST", `/api/automations/${uuid}/start`)
  expect(started.status, started.text).toBe(204)
  return uuid
}

/**
 * Waits until the SMTP server has every member's A and B, then checks through the API that every position is
 * completed and each mail has exactly one Send per member, all sent; the SMTP repeat count.
 */
const expectEveryoneServedOnce = async (rig: Rig, flow: string, list: string, mails: ReadonlyArray<string>) => {
  const everyone = Array.from({ length: COUNT }, (_, i) => `member${i + 1}@example.com`)
  const wanted = everyone.flatMap((address) => [`${address} A`, `${address} B`])
  await until(() => wanted.every((key) => received(rig).has(key)), 120_000)
  const counts = received(rig)
  expect(wanted.filter((key) => !counts.has(key)), "mails never received").toEqual([])
  expect([...counts.keys()].filter((key) => !wanted.includes(key)), "unexpected mails").toEqual([])

  const subscribers = await collect(rig, `/api/email-lists/${list}/subscribers`)
  expect(subscribers).toHaveLength(COUNT)
  const positions = await collect(rig, `/api/automations/${flow}/subscribers`)
  expect(positions.filter((p) => p.state !== "completed"), "positions not completed").toEqual([])
  expect(positions).toHaveLength(COUNT)
  expect(new Set(positions.map((p) => p.subscriber_uuid)).size).toBe(COUNT)

  for (const mailUuid of mails) {
    // a send in flight at the kill is recorded once its lease ends: wait until none is pending
    await until(async () => (await collect(rig, `/api/sends?filter[automation_mail_uuid]=${mailUuid}`)).every((s) => s.sent_at !== null), 30_000)
    const sends = await collect(rig, `/api/sends?filter[automation_mail_uuid]=${mailUuid}`)
    const per = new Map<string, number>()
    for (const send of sends) per.set(send.subscriber_uuid, (per.get(send.subscriber_uuid) ?? 0) + 1)
    expect([...per.entries()].filter(([, n]) => n !== 1), "subscribers with more than one Send").toEqual([])
    expect([...per.keys()].sort()).toEqual(subscribers.map((s) => s.uuid).sort())
    expect(sends.filter((s) => s.sent_at === null || s.failed_at !== null), "sends not sent").toEqual([])
  }
  const repeats = [...counts.values()].filter((n) => n > 1).length
  expect(repeats, "mails repeated beyond what was in flight at the kill").toBeLessThanOrEqual(CONCURRENCY)
  return { repeats, subscribers }
}

describe.each(["sqlite", "postgres"] as const)("automation mails when the process dies (%s)", (store) => {
  it("SIGKILL while the mails go out: everyone completes with one Send per mail, gets both mails, repeats within the in-flight bound", async () =>
    withRig({
      store,
      workers: store === "postgres" ? 1 : 0,
      smtp: { replyDelayMs: 20 },
      env: LEASES
    }, async (rig) => {
      const { a, b, list } = await setUp(rig, store)
      const flow = await startFlow(rig, list, [
        { type: "send_mail", automation_mail_uuid: a },
        { type: "add_tags", tags: ["got-a"] },
        { type: "send_mail", automation_mail_uuid: b }
      ])
      await rig.sink.waitFor(30, 60_000)
      const before = rig.sink.received.length
      await rig.crash(0)
      expect(before, "every mail went out before the kill: the test proves nothing").toBeLessThan(2 * COUNT)

      const { repeats } = await expectEveryoneServedOnce(rig, flow, list, [a, b])
      const tagged = await rig.api.call("GET", `/api/email-lists/${list}/subscribers?filter[tags]=got-a&per_page=1`)
      expect(tagged.body.meta.total).toBe(COUNT)
      console.log(`automations crash (${store}): ${before} of ${2 * COUNT} mails before the kill, ${repeats} repeated after it`)
    }), 180_000)
  it("SIGKILL while the scheduler posts webhook actions: the step is done again after its lease, webhooks at least once, still one Send per mail", async () => {
    const receiver = await slowReceiver(150)
    try {
      await withRig({ store, workers: store === "postgres" ? 1 : 0, env: LEASES }, async (rig) => {
        const { a, b, list } = await setUp(rig, store)
        const secret = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`
        const flow = await startFlow(rig, list, [
          { type: "send_mail", automation_mail_uuid: a },
          { type: "webhook", url: receiver.url, secret },
          { type: "send_mail", automation_mail_uuid: b }
        ])
        await until(() => receiver.requests.length >= 20, 60_000)
        const before = receiver.requests.length
        await rig.crash(0)
        expect(before, "every webhook was posted before the kill: the test proves nothing").toBeLessThan(COUNT)

        const { repeats, subscribers } = await expectEveryoneServedOnce(rig, flow, list, [a, b])
        const ids = new Map<string, string>()
        for (const request of receiver.requests) {
          expect(ids.get(request.id) ?? request.subscriber, `webhook-id ${request.id} used for two subscribers`).toBe(request.subscriber)
          ids.set(request.id, request.subscriber)
        }
        expect([...new Set(ids.values())].sort()).toEqual(subscribers.map((s) => s.uuid).sort())
        expect(ids.size).toBe(COUNT)
        console.log(`automations scheduler crash (${store}): ${before} webhooks before the kill, ${receiver.requests.length - COUNT} posted again, ${repeats} mails repeated`)
      })
    } finally {
      await receiver.close()
    }
  }, 180_000)
})
