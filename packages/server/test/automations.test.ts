/**
 * Automations through the HTTP API, on every store: create (paused, actions given uuids, counts at 0), read, list
 * (sorts, filters, 400 on unknown keys), change only the fields given, delete; the 422s of bad bodies, keyed by the
 * path of the bad action; start (422 without list, trigger or action) and pause, both idempotent; the webhook trigger
 * endpoint (400 without a webhook trigger, 422 on missing or unknown subscribers, what was queued and skipped); and
 * flows run by the triggers and the scheduler as a client sees them: a welcome series mailing a personalised mail
 * listed among the sends, live per-action counts and positions, subscribers entering by API, CSV import and tag
 * changes, halting on unsubscribe and on a removed action, an automation mail in use that cannot be deleted, the
 * re-entry rules, a signed webhook action, subscribe-to-list, and condition branches. Also: confirmation before
 * entry, segments (skipped, halted on leaving, deleted), date, daily and attribute-date triggers, splits, pause,
 * halt and unsubscribe actions, repeated runs mailing again, duplicate and concurrent trigger calls, a webhook failing
 * for a day, a condition rechecked in its window, and the unsubscribe link of an automation mail.
 *
 * Time passing (a wait's end, a condition's window) is simulated by running the triggers and the scheduler with an
 * Effect Clock set minutes ahead (`later`): the scheduler then sees those steps due exactly as it would at that time.
 */
import { describe, expect, layer } from "@effect/vitest"
import { randomBytes } from "node:crypto"
import { Clock, Effect } from "effect"
import { Webhook } from "standardwebhooks"
import { expectMessageOnly, expectStatus, expectValidation, TIMESTAMP, unique } from "./expectations.js"
import { createImport, startAndRun } from "./imports.support.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"
import { webhookReceiver } from "./WebhookReceiver.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const MISSING = "6b2c1d2e-0000-4000-8000-000000000000"
const MINUTE = 60_000

/** A Clock `offsetMs` ahead of the real one. */
const clockAhead = (offsetMs: number): Clock.Clock => {
  const base = Clock.make()
  const nanos = BigInt(offsetMs) * 1_000_000n
  return {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => base.unsafeCurrentTimeMillis() + offsetMs,
    unsafeCurrentTimeNanos: () => base.unsafeCurrentTimeNanos() + nanos,
    currentTimeMillis: Effect.sync(() => base.unsafeCurrentTimeMillis() + offsetMs),
    currentTimeNanos: Effect.sync(() => base.unsafeCurrentTimeNanos() + nanos),
    sleep: base.sleep
  }
}

/** Runs an effect as if `minutes` had passed. */
const later = (minutes: number) => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.withClock(effect, clockAhead(minutes * MINUTE))

/** Every action of a tree, depth first (branches after their action). */
const flatten = (actions: ReadonlyArray<any>): Array<any> =>
  actions.flatMap((a) => [a, ...flatten([...(a.yes ?? []), ...(a.no ?? []), ...(a.left ?? []), ...(a.right ?? [])])])

/** A Standard Webhooks secret: whsec_ and the base64 of 32 random bytes. */
const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`

describe.each(stores)("automations on %s", (store) => {
  layer(TestServerLive(store, { webhooks: { timeoutMs: 2_000 } }), { excludeTestServices: true })((it) => {
    /** A new email list (no confirmation needed); its uuid, id and a domain of its own for addresses. */
    const aList = Effect.gen(function*() {
      const { call } = yield* TestServer
      const domain = `${unique("au")}.example`
      const r = yield* call("POST", "/api/email-lists", { body: { name: unique("Automations "), default_from_email: `news@${domain}`, default_from_name: "News" } })
      expectStatus(r, 201)
      return { uuid: r.body.data.uuid as string, id: r.body.data.id as number, domain }
    })
    /** Subscribes `name@domain` (subscribed at once); its uuid. */
    const subscribe = (list: { uuid: string; domain: string }, name: string, extra: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, {
          body: { email: `${name}@${list.domain}`, first_name: name, skip_confirmation: true, ...extra }
        })
        expectStatus(r, 201)
        return r.body.data.uuid as string
      })
    const aMail = (body: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/automation-mails", { body: { name: unique("Mail "), subject: "Hello", html: "<p>Hello</p>", ...body } })
        expectStatus(r, 201)
        return r.body.data.uuid as string
      })
    const create = (body: Record<string, unknown>) =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("POST", "/api/automations", { body: { name: unique("Flow "), ...body } })
        expectStatus(r, 201)
        return r.body.data
      })
    const start = (uuid: string) => Effect.flatMap(TestServer, ({ call }) => Effect.map(call("POST", `/api/automations/${uuid}/start`), (r) => expectStatus(r, 204)))
    const getAutomation = (uuid: string) =>
      Effect.gen(function*() {
        const r = yield* (yield* TestServer).call("GET", `/api/automations/${uuid}`)
        expectStatus(r, 200)
        return r.body.data
      })
    /** The counts of every action of the automation, by uuid. */
    const countsOf = (uuid: string) =>
      Effect.map(getAutomation(uuid), (a) =>
        Object.fromEntries(flatten(a.actions).map((x) => [x.uuid, { active: x.active, completed: x.completed, halted: x.halted }])) as Record<
          string,
          { active: number; completed: number; halted: number }
        >)
    /** Where subscribers are in the automation (every page). */
    const positions = (uuid: string, query = "") =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const r = yield* call("GET", `/api/automations/${uuid}/subscribers?per_page=100${query}`)
        expectStatus(r, 200)
        return r.body.data as Array<any>
      })
    const trigger = (uuid: string, subscribers: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const r = yield* (yield* TestServer).call("POST", `/api/automations/${uuid}/trigger`, { body: { subscribers } })
        expectStatus(r, 200)
        return r.body.data as { queued: number; skipped: Array<{ uuid: string; reason: string }> }
      })
    const subscriber = (uuid: string) =>
      Effect.gen(function*() {
        const r = yield* (yield* TestServer).call("GET", `/api/subscribers/${uuid}`)
        expectStatus(r, 200)
        return r.body.data
      })
    /**
     * Runs the triggers and the scheduler until `count` positions are in the automation (at most 10 s): on Postgres an
     * event becomes readable only once every older transaction of the cluster has ended, so one drain may come early.
     */
    const enrolled = (uuid: string, count: number) =>
      Effect.gen(function*() {
        const { runAutomations } = yield* TestServer
        const deadline = Date.now() + 10_000
        for (;;) {
          yield* runAutomations
          const where = yield* positions(uuid)
          if (where.length >= count || Date.now() > deadline) return where
          yield* Effect.sleep("100 millis")
        }
      })
    /** A started automation with a webhook trigger on the list. */
    const webhookFlow = (list: { uuid: string }, actions: ReadonlyArray<unknown>, extra: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const automation = yield* create({ email_list_uuid: list.uuid, trigger: { type: "webhook" }, actions, ...extra })
        yield* start(automation.uuid)
        return automation
      })

    it.effect("create answers 201 paused with a uuid on every action and counts at 0; GET, PUT of some fields, DELETE 204 then 404", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* aList
        const mail = yield* aMail()
        const created = yield* call("POST", "/api/automations", {
          body: {
            name: "Welcome series",
            email_list_uuid: list.uuid,
            trigger: { type: "subscribed" },
            actions: [
              { type: "send_mail", automation_mail_uuid: mail },
              { type: "wait", length: 2, unit: "days" },
              {
                type: "condition",
                condition: { type: "has_tag", tag: "vip" },
                window: { length: 1, unit: "days" },
                yes: [{ type: "add_tags", tags: ["happy"] }],
                no: []
              }
            ]
          }
        })
        expectStatus(created, 201)
        expect(Object.keys(created.body)).toEqual(["data"])
        const automation = created.body.data
        expect(automation).toMatchObject({
          name: "Welcome series",
          email_list_uuid: list.uuid,
          segment_uuid: null,
          status: "paused",
          trigger: { type: "subscribed" },
          repeat_enabled: false,
          repeat_only_after_halt: true
        })
        expect(automation.uuid).toMatch(UUID)
        expect(automation.created_at).toMatch(TIMESTAMP)
        expect(automation.updated_at).toMatch(TIMESTAMP)
        expect(automation.actions.map((a: any) => a.type)).toEqual(["send_mail", "wait", "condition"])
        expect(automation.actions[1]).toMatchObject({ length: 2, unit: "days" })
        const all = flatten(automation.actions)
        expect(all).toHaveLength(4)
        for (const action of all) {
          expect(action.uuid).toMatch(UUID)
          expect(action).toMatchObject({ active: 0, completed: 0, halted: 0 })
        }
        expect(new Set(all.map((a) => a.uuid)).size).toBe(4)
        expect(yield* getAutomation(automation.uuid)).toEqual(automation)

        const renamed = yield* call("PUT", `/api/automations/${automation.uuid}`, { body: { name: "Renamed" } })
        expectStatus(renamed, 200)
        expect(renamed.body.data).toMatchObject({ name: "Renamed", email_list_uuid: list.uuid, trigger: { type: "subscribed" }, status: "paused" })
        expect(renamed.body.data.actions).toEqual(automation.actions)

        const kept = automation.actions[0].uuid
        const changed = yield* call("PUT", `/api/automations/${automation.uuid}`, {
          body: {
            actions: [{ uuid: kept, type: "send_mail", automation_mail_uuid: mail }, { type: "add_tags", tags: ["done"] }],
            repeat_enabled: true,
            trigger: { type: "tag_added", tag: "vip" }
          }
        })
        expectStatus(changed, 200)
        expect(changed.body.data).toMatchObject({ name: "Renamed", repeat_enabled: true, repeat_only_after_halt: true, trigger: { type: "tag_added", tag: "vip" } })
        expect(changed.body.data.actions[0].uuid).toBe(kept)
        expect(changed.body.data.actions[1]).toMatchObject({ type: "add_tags", tags: ["done"] })
        expect(changed.body.data.actions[1].uuid).toMatch(UUID)
        expect(changed.body.data.actions[1].uuid).not.toBe(automation.actions[1].uuid)
        expect(changed.body.data.created_at).toBe(automation.created_at)

        const deleted = yield* call("DELETE", `/api/automations/${automation.uuid}`)
        expectStatus(deleted, 204)
        expect(deleted.text).toBe("")
        expectMessageOnly(yield* call("GET", `/api/automations/${automation.uuid}`), 404)
        expectMessageOnly(yield* call("DELETE", `/api/automations/${automation.uuid}`), 404)
        expectMessageOnly(yield* call("PUT", `/api/automations/${automation.uuid}`, { body: { name: "x" } }), 404)
      }))

    it.effect("the collection sorts by name (default) or created_at, filters by search and status; unknown keys are 400", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* aList
        const tag = unique("s")
        const uuids: Array<string> = []
        for (const name of [`${tag} beta`, `${tag} Alpha`, `${tag} gamma`]) {
          uuids.push((yield* create({ name, email_list_uuid: list.uuid, trigger: { type: "webhook" }, actions: [{ type: "halt" }] })).uuid)
        }
        yield* start(uuids[2]!)
        const names = (r: any) => r.body.data.map((a: { name: string }) => a.name)
        const byName = yield* call("GET", `/api/automations?filter[search]=${tag}`)
        expectStatus(byName, 200)
        expect(names(byName)).toEqual([`${tag} Alpha`, `${tag} beta`, `${tag} gamma`])
        expect(byName.body.meta).toMatchObject({ total: 3, current_page: 1 })
        expect(names(yield* call("GET", `/api/automations?filter[search]=${tag}&sort=-name`))).toEqual([`${tag} gamma`, `${tag} beta`, `${tag} Alpha`])
        const byCreated = yield* call("GET", `/api/automations?filter[search]=${tag}&sort=-created_at`)
        expect(byCreated.body.data.map((a: { uuid: string }) => a.uuid)).toEqual([...uuids].reverse())
        const ascending = yield* call("GET", `/api/automations?filter[search]=${tag}&sort=created_at&per_page=2`)
        expect(ascending.body.data.map((a: { uuid: string }) => a.uuid)).toEqual(uuids.slice(0, 2))
        expect(ascending.body.meta).toMatchObject({ total: 3, per_page: 2, last_page: 2 })
        expect(names(yield* call("GET", `/api/automations?filter[search]=${tag}&filter[status]=started`))).toEqual([`${tag} gamma`])
        expect(names(yield* call("GET", `/api/automations?filter[search]=${tag}&filter[status]=paused`))).toEqual([`${tag} Alpha`, `${tag} beta`])
        expect(names(yield* call("GET", `/api/automations?filter[search]=${tag.toUpperCase()}%20ALPHA`))).toEqual([`${tag} Alpha`])
        expectMessageOnly(yield* call("GET", "/api/automations?sort=status"), 400)
        expectMessageOnly(yield* call("GET", "/api/automations?filter[name]=x"), 400)
      }))

    it.effect("bad bodies are 422 keyed by field and by the path of the bad action; nothing is created", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* aList
        const mail = yield* aMail()
        const tag = unique("bad")
        const post = (body: Record<string, unknown>) => call("POST", "/api/automations", { body })
        expectValidation(yield* post({ email_list_uuid: list.uuid }), ["name"])
        expectValidation(yield* post({ name: "  " }), ["name"])
        const badTrigger = yield* post({ name: tag, trigger: { type: "someday" } })
        expectValidation(badTrigger, [])
        expect(Object.keys(badTrigger.body.errors).every((key) => key.startsWith("trigger")), badTrigger.text).toBe(true)
        const nested = yield* post({
          name: tag,
          email_list_uuid: list.uuid,
          actions: [{
            type: "condition",
            condition: { type: "has_tag", tag: "vip" },
            window: { length: 1, unit: "days" },
            yes: [{ type: "send_mail", automation_mail_uuid: MISSING }],
            no: [{ type: "send_mail", automation_mail_uuid: mail }]
          }]
        })
        expectValidation(nested, ["actions.0.yes.0.automation_mail_uuid"])
        expect(Object.keys(nested.body.errors)).toEqual(["actions.0.yes.0.automation_mail_uuid"])
        const badList = yield* post({ name: tag, email_list_uuid: MISSING })
        expectValidation(badList, ["email_list_uuid"])
        expectValidation(yield* post({ name: tag, email_list_uuid: "not-a-uuid" }), ["email_list_uuid"])
        const split = yield* post({
          name: tag,
          email_list_uuid: list.uuid,
          actions: [{ type: "split", left: [{ type: "halt" }], right: [{ type: "halt" }] }, { type: "add_tags", tags: ["after"] }]
        })
        expectValidation(split, ["actions.0"])
        const nestedSplit = yield* post({
          name: tag,
          email_list_uuid: list.uuid,
          actions: [{ type: "split", left: [{ type: "split", left: [], right: [] }, { type: "halt" }], right: [] }]
        })
        expectValidation(nestedSplit, ["actions.0.left.0"])
        const otherList = yield* post({
          name: tag,
          email_list_uuid: list.uuid,
          actions: [{ type: "wait", length: 1, unit: "days" }, { type: "subscribe_to_list", email_list_uuid: MISSING }]
        })
        expectValidation(otherList, ["actions.1.email_list_uuid"])
        const secret = yield* post({ name: tag, actions: [{ type: "webhook", url: "https://example.com/hook", secret: "whsec_c2hvcnQ=" }] })
        expectValidation(secret, [])
        expect(JSON.stringify(secret.body.errors), secret.text).toContain("actions.0")
        const existing = yield* create({ name: tag })
        const put = yield* call("PUT", `/api/automations/${existing.uuid}`, {
          body: { actions: [{ type: "send_mail", automation_mail_uuid: mail }, { type: "halt", uuid: "x" }] }
        })
        expectStatus(put, 422)
        const listed = yield* call("GET", `/api/automations?filter[search]=${tag}`)
        expect(listed.body.meta.total).toBe(1)
        expect((yield* getAutomation(existing.uuid)).actions).toEqual([])
      }))

    it.effect("start is 422 naming what is missing; start and pause answer 204 and are idempotent; unknown uuids are 404", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* aList
        const bare = yield* create({})
        const refused = yield* call("POST", `/api/automations/${bare.uuid}/start`)
        expectValidation(refused, ["email_list_uuid", "trigger", "actions"])
        expect(Object.keys(refused.body.errors).sort()).toEqual(["actions", "email_list_uuid", "trigger"])
        expect((yield* getAutomation(bare.uuid)).status).toBe("paused")
        expectStatus(yield* call("PUT", `/api/automations/${bare.uuid}`, { body: { email_list_uuid: list.uuid, trigger: { type: "webhook" } } }), 200)
        const onlyActions = yield* call("POST", `/api/automations/${bare.uuid}/start`)
        expectValidation(onlyActions, ["actions"])
        expect(Object.keys(onlyActions.body.errors)).toEqual(["actions"])
        expectStatus(yield* call("PUT", `/api/automations/${bare.uuid}`, { body: { actions: [{ type: "add_tags", tags: ["x"] }] } }), 200)
        for (const _ of [1, 2]) {
          const r = yield* call("POST", `/api/automations/${bare.uuid}/start`)
          expectStatus(r, 204)
          expect(r.text).toBe("")
          expect((yield* getAutomation(bare.uuid)).status).toBe("started")
        }
        for (const _ of [1, 2]) {
          const r = yield* call("POST", `/api/automations/${bare.uuid}/pause`)
          expectStatus(r, 204)
          expect(r.text).toBe("")
          expect((yield* getAutomation(bare.uuid)).status).toBe("paused")
        }
        for (const part of ["start", "pause"]) expectMessageOnly(yield* call("POST", `/api/automations/${MISSING}/${part}`), 404)
        expectMessageOnly(yield* call("POST", `/api/automations/${MISSING}/trigger`, { body: { subscribers: [] } }), 404)
        expectMessageOnly(yield* call("GET", `/api/automations/${MISSING}/subscribers`), 404)
        expectMessageOnly(yield* call("GET", "/api/automations/not-a-uuid"), 404)
      }))

    it.effect("the trigger endpoint: 400 without a webhook trigger, 422 on missing or unknown subscribers, 200 with what was queued and skipped", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* aList
        const other = yield* aList
        const [ada, bob, cy] = [yield* subscribe(list, "ada"), yield* subscribe(list, "bob"), yield* subscribe(list, "cy")]
        const stranger = yield* subscribe(other, "dee")
        expectStatus(yield* call("POST", `/api/subscribers/${bob}/unsubscribe`), 204)

        const onSubscribe = yield* create({ email_list_uuid: list.uuid, trigger: { type: "subscribed" }, actions: [{ type: "halt" }] })
        const notWebhook = yield* call("POST", `/api/automations/${onSubscribe.uuid}/trigger`, { body: { subscribers: [ada] } })
        expect(notWebhook.status).toBe(400)
        expect(notWebhook.body).toEqual({ message: "This automation does not have a Webhook trigger." })
        expect(notWebhook.text).toBe(JSON.stringify({ message: "This automation does not have a Webhook trigger." }))

        const automation = yield* webhookFlow(list, [{ type: "wait", length: 1, unit: "days" }])
        const path = `/api/automations/${automation.uuid}/trigger`
        const missing = yield* call("POST", path, { body: {} })
        expectValidation(missing, ["subscribers"])
        const unknown = yield* call("POST", path, { body: { subscribers: [ada, MISSING, "nope"] } })
        expectValidation(unknown, ["subscribers.1", "subscribers.2"])
        expect(unknown.body.errors["subscribers.0"]).toBeUndefined()
        expect(yield* positions(automation.uuid)).toEqual([])

        const first = yield* trigger(automation.uuid, [ada, bob, stranger])
        expect(first.queued).toBe(1)
        expect(first.skipped.map((s) => s.uuid).sort()).toEqual([bob, stranger].sort())
        for (const skip of first.skipped) expect(skip.reason.length).toBeGreaterThan(0)
        const second = yield* trigger(automation.uuid, [ada, cy])
        expect(second.queued).toBe(1)
        expect(second.skipped).toEqual([{ uuid: ada, reason: expect.any(String) }])
        const where = yield* positions(automation.uuid)
        expect(where.map((p) => p.subscriber_uuid).sort()).toEqual([ada, cy].sort())
        for (const p of where) expect(p).toMatchObject({ state: "active", action_uuid: automation.actions[0].uuid })

        expectStatus(yield* call("POST", `/api/automations/${automation.uuid}/pause`), 204)
        const paused = yield* call("POST", path, { body: { subscribers: [ada] } })
        expectStatus(paused, 200)
        expect(paused.body.data).toEqual({ queued: 0, skipped: [{ uuid: ada, reason: expect.any(String) }] })
      }))

    it.effect("a welcome series: a new subscriber gets the mail personalised, listed among the sends; counts and positions follow the wait to the end", () =>
      Effect.gen(function*() {
        const { call, deliverAutomationMails, mails, runAutomations } = yield* TestServer
        const list = yield* aList
        const early = yield* subscribe(list, "early")
        const mail = yield* aMail({ subject: "Welcome {{ subscriber.first_name }}", html: "<p>Hi {{ subscriber.first_name }}, glad you came.</p>" })
        const automation = yield* create({
          email_list_uuid: list.uuid,
          trigger: { type: "subscribed" },
          actions: [
            { type: "send_mail", automation_mail_uuid: mail },
            { type: "wait", length: 10, unit: "minutes" },
            { type: "add_tags", tags: ["welcomed"] }
          ]
        })
        const [send, wait, tag] = automation.actions.map((a: { uuid: string }) => a.uuid)
        yield* start(automation.uuid)
        const ada = yield* subscribe(list, "Ada", { email: `ada@${list.domain}` })
        yield* enrolled(automation.uuid, 1)
        yield* deliverAutomationMails

        const got = (yield* mails).filter((m) => m.to.email.endsWith(`@${list.domain}`))
        expect(got.map((m) => m.to.email)).toEqual([`ada@${list.domain}`])
        expect(got[0]!.subject).toBe("Welcome Ada")
        expect(got[0]!.html).toContain("<p>Hi Ada, glad you came.</p>")
        const sends = (yield* call("GET", `/api/sends?filter[automation_mail_uuid]=${mail}`)).body
        expect(sends.meta.total).toBe(1)
        expect(sends.data[0]).toMatchObject({ automation_mail_uuid: mail, subscriber_uuid: ada, campaign_uuid: null, failed_at: null })
        expect(sends.data[0].sent_at).toMatch(TIMESTAMP)
        expect((yield* call("GET", `/api/sends?filter[subscriber_uuid]=${early}`)).body.meta.total).toBe(0)
        expect((yield* call("GET", `/api/automation-mails/${mail}`)).body.data.sent_to_number_of_subscribers).toBe("1")

        expect(yield* countsOf(automation.uuid)).toEqual({
          [send]: { active: 0, completed: 1, halted: 0 },
          [wait]: { active: 1, completed: 0, halted: 0 },
          [tag]: { active: 0, completed: 0, halted: 0 }
        })
        const [position, ...others] = yield* positions(automation.uuid)
        expect(others).toEqual([])
        expect(position).toMatchObject({ subscriber_uuid: ada, state: "active", action_uuid: wait })
        expect(position.entered_at).toMatch(TIMESTAMP)
        expect(position.next_run_at).toMatch(TIMESTAMP)
        const waited = Date.parse(position.next_run_at) - Date.parse(position.entered_at)
        expect(waited).toBeGreaterThanOrEqual(10 * MINUTE)
        expect(waited).toBeLessThan(10 * MINUTE + 30_000)
        expect((yield* subscriber(ada)).tags).not.toContain("welcomed")

        yield* later(5)(runAutomations)
        expect((yield* positions(automation.uuid))[0]).toMatchObject({ state: "active", action_uuid: wait })
        yield* later(11)(runAutomations)
        yield* deliverAutomationMails
        expect(yield* countsOf(automation.uuid)).toEqual({
          [send]: { active: 0, completed: 1, halted: 0 },
          [wait]: { active: 0, completed: 1, halted: 0 },
          [tag]: { active: 0, completed: 1, halted: 0 }
        })
        const done = yield* positions(automation.uuid)
        expect(done).toHaveLength(1)
        expect(done[0]).toMatchObject({ subscriber_uuid: ada, state: "completed", entered_at: position.entered_at })
        expect((yield* positions(automation.uuid, "&filter[state]=completed")).map((p) => p.subscriber_uuid)).toEqual([ada])
        expect(yield* positions(automation.uuid, "&filter[state]=active")).toEqual([])
        expect((yield* subscriber(ada)).tags).toContain("welcomed")
        expect((yield* mails).filter((m) => m.to.email.endsWith(`@${list.domain}`))).toHaveLength(1)
        expect((yield* call("GET", `/api/sends?filter[automation_mail_uuid]=${mail}`)).body.meta.total).toBe(1)
      }))

    it.effect("subscribers added by a CSV import enter a subscribed-triggered automation and get its mail", () =>
      Effect.gen(function*() {
        const { call, deliverAutomationMails, mails, runAutomations } = yield* TestServer
        const list = yield* aList
        const mail = yield* aMail({ subject: "Imported {{ subscriber.first_name }}" })
        const automation = yield* create({ email_list_uuid: list.uuid, trigger: { type: "subscribed" }, actions: [{ type: "send_mail", automation_mail_uuid: mail }] })
        yield* start(automation.uuid)
        const csv = ["email,first_name", ...["x1", "x2", "x3"].map((n) => `${n}@${list.domain},${n.toUpperCase()}`)].join("\n") + "\n"
        const created = yield* createImport(list, csv)
        expect((yield* startAndRun(created.id)).status).toBe("completed")
        yield* enrolled(automation.uuid, 3)
        yield* runAutomations
        yield* deliverAutomationMails
        const members = (yield* call("GET", `/api/email-lists/${list.uuid}/subscribers?per_page=100`)).body.data as Array<any>
        expect(members).toHaveLength(3)
        const where = yield* positions(automation.uuid)
        expect(where.map((p) => p.subscriber_uuid).sort()).toEqual(members.map((m) => m.uuid).sort())
        for (const p of where) expect(p.state).toBe("completed")
        const got = (yield* mails).filter((m) => m.to.email.endsWith(`@${list.domain}`))
        expect(got.map((m) => m.subject).sort()).toEqual(["Imported X1", "Imported X2", "Imported X3"])
        expect((yield* call("GET", `/api/sends?filter[automation_mail_uuid]=${mail}`)).body.meta.total).toBe(3)
      }))

    it.effect("tag_added and tag_removed triggers: adding and removing the tag through the API enters the subscriber; other tags do not", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* aList
        const bob = yield* subscribe(list, "bob", { tags: ["other"] })
        // repeating freely, so every triggering event shows as one more entry
        const repeat = { repeat_enabled: true, repeat_only_after_halt: false }
        const added = yield* create({ email_list_uuid: list.uuid, trigger: { type: "tag_added", tag: "vip" }, actions: [{ type: "add_tags", tags: ["got-vip"] }], ...repeat })
        const removed = yield* create({ email_list_uuid: list.uuid, trigger: { type: "tag_removed", tag: "VIP" }, actions: [{ type: "add_tags", tags: ["lost-vip"] }], ...repeat })
        yield* start(added.uuid)
        yield* start(removed.uuid)
        expectStatus(yield* call("POST", `/api/subscribers/${bob}/tags`, { body: { tags: ["another"] } }), 200)
        expectStatus(yield* call("POST", `/api/subscribers/${bob}/tags`, { body: { tags: ["vip"] } }), 200)
        // events are read in order: once the vip entry is there, the other tag was handled too
        const entered = yield* enrolled(added.uuid, 1)
        expect(entered.map((p) => [p.subscriber_uuid, p.state])).toEqual([[bob, "completed"]])
        expect((yield* subscriber(bob)).tags).toContain("got-vip")

        expectStatus(yield* call("DELETE", `/api/subscribers/${bob}/tags`, { body: { tags: ["other"] } }), 200)
        expectStatus(yield* call("DELETE", `/api/subscribers/${bob}/tags`, { body: { tags: ["vip"] } }), 200)
        const left = yield* enrolled(removed.uuid, 1)
        expect(left.map((p) => [p.subscriber_uuid, p.state])).toEqual([[bob, "completed"]])
        expect((yield* subscriber(bob)).tags).toEqual(expect.arrayContaining(["got-vip", "lost-vip"]))
        expect(yield* positions(added.uuid)).toHaveLength(1)
        expect(yield* positions(removed.uuid)).toHaveLength(1)
      }))

    it.effect("a subscriber who unsubscribes is halted at the next step and gets no more mail; the others go on", () =>
      Effect.gen(function*() {
        const { call, deliverAutomationMails, mails, runAutomations } = yield* TestServer
        const list = yield* aList
        const [ada, bob] = [yield* subscribe(list, "ada"), yield* subscribe(list, "bob")]
        const mail = yield* aMail({ subject: "After the wait" })
        const automation = yield* webhookFlow(list, [{ type: "wait", length: 5, unit: "minutes" }, { type: "send_mail", automation_mail_uuid: mail }])
        const [wait, send] = automation.actions.map((a: { uuid: string }) => a.uuid)
        expect((yield* trigger(automation.uuid, [ada, bob])).queued).toBe(2)
        expectStatus(yield* call("POST", `/api/subscribers/${bob}/unsubscribe`), 204)
        yield* runAutomations
        expect((yield* positions(automation.uuid)).map((p) => p.state)).toEqual(["active", "active"])
        yield* later(6)(runAutomations)
        yield* deliverAutomationMails
        const where = Object.fromEntries((yield* positions(automation.uuid)).map((p) => [p.subscriber_uuid, p]))
        expect(where[ada]).toMatchObject({ state: "completed" })
        expect(where[bob]).toMatchObject({ state: "halted", action_uuid: wait })
        expect(yield* countsOf(automation.uuid)).toEqual({
          [wait]: { active: 0, completed: 1, halted: 1 },
          [send]: { active: 0, completed: 1, halted: 0 }
        })
        expect((yield* mails).filter((m) => m.to.email.endsWith(`@${list.domain}`)).map((m) => m.to.email)).toEqual([`ada@${list.domain}`])
        const sends = (yield* call("GET", `/api/sends?filter[automation_mail_uuid]=${mail}`)).body
        expect(sends.data.map((s: { subscriber_uuid: string }) => s.subscriber_uuid)).toEqual([ada])
      }))

    it.effect("PUT removing an action halts whoever stands on it; the others keep their place", () =>
      Effect.gen(function*() {
        const { call, runAutomations } = yield* TestServer
        const list = yield* aList
        const ada = yield* subscribe(list, "ada", { tags: ["fast"] })
        const bob = yield* subscribe(list, "bob")
        const automation = yield* webhookFlow(list, [{
          type: "condition",
          condition: { type: "has_tag", tag: "fast" },
          window: { length: 7, unit: "days" },
          yes: [{ type: "wait", length: 30, unit: "minutes" }],
          no: []
        }])
        const condition = automation.actions[0]
        const waitUuid = condition.yes[0].uuid
        yield* trigger(automation.uuid, [ada, bob])
        yield* runAutomations
        const before = Object.fromEntries((yield* positions(automation.uuid)).map((p) => [p.subscriber_uuid, p]))
        expect(before[ada]).toMatchObject({ state: "active", action_uuid: waitUuid })
        expect(before[bob]).toMatchObject({ state: "active", action_uuid: condition.uuid })

        const { active: _a, completed: _c, halted: _h, ...written } = condition
        const put = yield* call("PUT", `/api/automations/${automation.uuid}`, {
          body: { actions: [{ ...written, yes: [{ type: "add_tags", tags: ["fast-lane"] }] }] }
        })
        expectStatus(put, 200)
        expect(put.body.data.actions[0].uuid).toBe(condition.uuid)
        expect(put.body.data.actions[0].yes[0].uuid).not.toBe(waitUuid)
        expect(put.body.data.actions[0]).toMatchObject({ active: 1, completed: 1, halted: 0 })
        const after = Object.fromEntries((yield* positions(automation.uuid)).map((p) => [p.subscriber_uuid, p]))
        expect(after[ada]).toMatchObject({ state: "halted", action_uuid: waitUuid })
        expect(after[bob]).toMatchObject({ state: "active", action_uuid: condition.uuid, next_run_at: before[bob].next_run_at })
        yield* later(60)(runAutomations)
        expect((yield* positions(automation.uuid, `&filter[subscriber_uuid]=${bob}`))[0]).toMatchObject({ state: "active", action_uuid: condition.uuid })
        expect((yield* subscriber(ada)).tags).not.toContain("fast-lane")
      }))

    it.effect("an automation mail sent by a started automation cannot be deleted (409 {message}); once paused it can (204)", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* aList
        const mail = yield* aMail()
        const automation = yield* webhookFlow(list, [{
          type: "condition",
          condition: { type: "has_tag", tag: "x" },
          window: { length: 1, unit: "days" },
          yes: [],
          no: [{ type: "send_mail", automation_mail_uuid: mail }]
        }])
        expectMessageOnly(yield* call("DELETE", `/api/automation-mails/${mail}`), 409)
        expectStatus(yield* call("GET", `/api/automation-mails/${mail}`), 200)
        expectStatus(yield* call("POST", `/api/automations/${automation.uuid}/pause`), 204)
        const deleted = yield* call("DELETE", `/api/automation-mails/${mail}`)
        expectStatus(deleted, 204)
        expectMessageOnly(yield* call("GET", `/api/automation-mails/${mail}`), 404)
      }))

    it.effect("re-entry: without repeat nobody enters twice; with repeat after halt only, not after completing; with repeat any time, again after completing", () =>
      Effect.gen(function*() {
        const { runAutomations } = yield* TestServer
        const list = yield* aList
        const ada = yield* subscribe(list, "ada")
        const actions = [{ type: "add_tags", tags: ["seen"] }]
        const once = yield* webhookFlow(list, actions)
        const afterHalt = yield* webhookFlow(list, actions, { repeat_enabled: true })
        const again = yield* webhookFlow(list, actions, { repeat_enabled: true, repeat_only_after_halt: false })
        expect(afterHalt).toMatchObject({ repeat_enabled: true, repeat_only_after_halt: true })
        expect(again).toMatchObject({ repeat_enabled: true, repeat_only_after_halt: false })
        for (const automation of [once, afterHalt, again]) expect((yield* trigger(automation.uuid, [ada])).queued).toBe(1)
        yield* runAutomations
        for (const automation of [once, afterHalt, again]) {
          expect((yield* positions(automation.uuid)).map((p) => p.state)).toEqual(["completed"])
        }
        const refusedOnce = yield* trigger(once.uuid, [ada])
        expect(refusedOnce).toEqual({ queued: 0, skipped: [{ uuid: ada, reason: expect.any(String) }] })
        expect((yield* trigger(afterHalt.uuid, [ada])).queued).toBe(0)
        expect((yield* trigger(again.uuid, [ada])).queued).toBe(1)
        yield* runAutomations
        expect((yield* positions(once.uuid))).toHaveLength(1)
        expect((yield* positions(afterHalt.uuid))).toHaveLength(1)
        expect((yield* positions(again.uuid)).map((p) => [p.subscriber_uuid, p.state])).toEqual([[ada, "completed"], [ada, "completed"]])
        expect(yield* countsOf(again.uuid)).toEqual({ [again.actions[0].uuid]: { active: 0, completed: 2, halted: 0 } })
      }))

    it.scoped("a webhook action posts the subscriber signed with the action's secret, retries a failed post, then goes on", () =>
      Effect.gen(function*() {
        const { runAutomations } = yield* TestServer
        const receiver = yield* webhookReceiver
        const list = yield* aList
        const ada = yield* subscribe(list, "ada", { extra_attributes: { plan: "pro" } })
        const secret = newSecret()
        const automation = yield* webhookFlow(list, [{ type: "webhook", url: receiver.url, secret }, { type: "add_tags", tags: ["hooked"] }])
        expect(automation.actions[0]).toMatchObject({ type: "webhook", url: receiver.url })
        receiver.answerNext(500)
        yield* trigger(automation.uuid, [ada])
        yield* runAutomations
        expect(receiver.received).toHaveLength(1)
        expect((yield* positions(automation.uuid))[0]).toMatchObject({ state: "active", action_uuid: automation.actions[0].uuid })
        expect((yield* subscriber(ada)).tags).not.toContain("hooked")

        yield* later(2)(runAutomations)
        expect(receiver.received).toHaveLength(2)
        const [failed, posted] = receiver.received
        expect(posted!.headers["webhook-id"]).toBe(failed!.headers["webhook-id"])
        const verifier = new Webhook(secret)
        for (const request of receiver.received) {
          expect(() => verifier.verify(request.body, request.headers as Record<string, string>)).not.toThrow()
        }
        expect(() => new Webhook(newSecret()).verify(posted!.body, posted!.headers as Record<string, string>)).toThrow()
        expect(posted!.json).toMatchObject({
          type: "automation.webhook",
          data: {
            automation_uuid: automation.uuid,
            action_uuid: automation.actions[0].uuid,
            subscriber: { uuid: ada, email: `ada@${list.domain}`, extra_attributes: { plan: "pro" } }
          }
        })
        expect((yield* positions(automation.uuid))[0]).toMatchObject({ state: "completed" })
        expect((yield* subscriber(ada)).tags).toContain("hooked")
        yield* later(4)(runAutomations)
        expect(receiver.received).toHaveLength(2)
      }))

    it.effect("subscribe_to_list puts the address on the other list, with the action's tags and the subscriber's names", () =>
      Effect.gen(function*() {
        const { call, runAutomations } = yield* TestServer
        const list = yield* aList
        const other = yield* aList
        const ada = yield* subscribe(list, "ada", { last_name: "Lovelace" })
        const automation = yield* webhookFlow(list, [{ type: "subscribe_to_list", email_list_uuid: other.uuid, tags: ["from-main"] }])
        expect(automation.actions[0]).toMatchObject({ email_list_uuid: other.uuid, tags: ["from-main"] })
        yield* trigger(automation.uuid, [ada])
        yield* runAutomations
        const there = (yield* call("GET", `/api/email-lists/${other.uuid}/subscribers?filter[email]=${encodeURIComponent(`ada@${list.domain}`)}`)).body.data
        expect(there).toHaveLength(1)
        expect(there[0]).toMatchObject({ email: `ada@${list.domain}`, email_list_uuid: other.uuid, first_name: "ada", last_name: "Lovelace", tags: ["from-main"] })
        expect(there[0].uuid).not.toBe(ada)
        expect((yield* positions(automation.uuid))[0]).toMatchObject({ state: "completed" })
        expect((yield* subscriber(ada)).tags).toEqual([])
      }))

    it.effect("condition has_tag: a tagged subscriber takes the yes branch at once; the other takes the no branch when the window closes", () =>
      Effect.gen(function*() {
        const { runAutomations } = yield* TestServer
        const list = yield* aList
        const ada = yield* subscribe(list, "ada", { tags: ["vip"] })
        const bob = yield* subscribe(list, "bob")
        const automation = yield* webhookFlow(list, [
          {
            type: "condition",
            condition: { type: "has_tag", tag: "vip" },
            window: { length: 10, unit: "minutes" },
            yes: [{ type: "add_tags", tags: ["yes-branch"] }],
            no: [{ type: "add_tags", tags: ["no-branch"] }]
          },
          { type: "add_tags", tags: ["after"] }
        ])
        const condition = automation.actions[0]
        const [yes, no, after] = [condition.yes[0].uuid, condition.no[0].uuid, automation.actions[1].uuid]
        yield* trigger(automation.uuid, [ada, bob])
        yield* runAutomations
        expect((yield* subscriber(ada)).tags.sort()).toEqual(["after", "vip", "yes-branch"])
        expect((yield* subscriber(bob)).tags).toEqual([])
        const waiting = (yield* positions(automation.uuid, `&filter[subscriber_uuid]=${bob}`))[0]
        expect(waiting).toMatchObject({ state: "active", action_uuid: condition.uuid })
        expect(Date.parse(waiting.next_run_at)).toBeLessThanOrEqual(Date.parse(waiting.entered_at) + 10 * MINUTE + 5_000)
        yield* later(11)(runAutomations)
        expect((yield* subscriber(bob)).tags.sort()).toEqual(["after", "no-branch"])
        expect((yield* positions(automation.uuid)).map((p) => p.state)).toEqual(["completed", "completed"])
        expect(yield* countsOf(automation.uuid)).toEqual({
          [condition.uuid]: { active: 0, completed: 2, halted: 0 },
          [yes]: { active: 0, completed: 1, halted: 0 },
          [no]: { active: 0, completed: 1, halted: 0 },
          [after]: { active: 0, completed: 2, halted: 0 }
        })
      }))

    it.effect("subscribed trigger and confirmation: an unconfirmed subscriber enters only once confirmed", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const domain = `${unique("cf")}.example`
        const created = yield* call("POST", "/api/email-lists", {
          body: { name: unique("Confirm "), default_from_email: `news@${domain}`, requires_confirmation: true }
        })
        expectStatus(created, 201)
        const list = { uuid: created.body.data.uuid as string, domain }
        const automation = yield* create({ email_list_uuid: list.uuid, trigger: { type: "subscribed" }, actions: [{ type: "add_tags", tags: ["welcomed"] }] })
        yield* start(automation.uuid)
        const pending = yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, { body: { email: `una@${domain}` } })
        expectStatus(pending, 201)
        expect(pending.body.data.subscribed_at).toBeNull()
        const direct = yield* subscribe(list, "dora")
        expect((yield* enrolled(automation.uuid, 1)).map((p) => p.subscriber_uuid)).toEqual([direct])
        expectStatus(yield* call("POST", `/api/subscribers/${pending.body.data.uuid}/confirm`), 204)
        const both = yield* enrolled(automation.uuid, 2)
        expect(both.map((p) => p.subscriber_uuid).sort()).toEqual([direct, pending.body.data.uuid].sort())
        expect((yield* subscriber(pending.body.data.uuid)).tags).toEqual(["welcomed"])
      }))

    it.effect("a segment: the trigger skips non-members; a member who leaves the segment is halted at the next step", () =>
      Effect.gen(function*() {
        const { call, runAutomations } = yield* TestServer
        const list = yield* aList
        const ada = yield* subscribe(list, "ada", { tags: ["member"] })
        const bob = yield* subscribe(list, "bob", { tags: ["member"] })
        const cy = yield* subscribe(list, "cy")
        const seg = yield* call("POST", `/api/email-lists/${list.uuid}/segments`, { body: { name: unique("seg"), positive_tags: ["member"] } })
        expectStatus(seg, 201)
        const automation = yield* webhookFlow(list, [{ type: "wait", length: 5, unit: "minutes" }, { type: "add_tags", tags: ["done"] }], { segment_uuid: seg.body.data.uuid })
        expect(automation.segment_uuid).toBe(seg.body.data.uuid)
        const result = yield* trigger(automation.uuid, [ada, bob, cy])
        expect(result.queued).toBe(2)
        expect(result.skipped.map((s) => s.uuid)).toEqual([cy])
        expectStatus(yield* call("DELETE", `/api/subscribers/${bob}/tags`, { body: { tags: ["member"] } }), 200)
        yield* later(6)(runAutomations)
        const where = Object.fromEntries((yield* positions(automation.uuid)).map((p) => [p.subscriber_uuid, p]))
        expect(where[ada]).toMatchObject({ state: "completed" })
        expect(where[bob]).toMatchObject({ state: "halted", action_uuid: automation.actions[0].uuid })
        expect((yield* subscriber(bob)).tags).not.toContain("done")
        const other = yield* aList
        expectValidation(yield* call("POST", "/api/automations", { body: { name: "x", email_list_uuid: other.uuid, segment_uuid: seg.body.data.uuid } }), ["segment_uuid"])
      }))

    it.effect("a date trigger in the past enrols every subscribed member of the list once, when started", () =>
      Effect.gen(function*() {
        const { call, runAutomations } = yield* TestServer
        const list = yield* aList
        const [ada, bob, cy] = [yield* subscribe(list, "ada"), yield* subscribe(list, "bob"), yield* subscribe(list, "cy")]
        expectStatus(yield* call("POST", `/api/subscribers/${cy}/unsubscribe`), 204)
        const badAt = yield* call("POST", "/api/automations", { body: { name: "x", trigger: { type: "date", at: "2020-01-01T00:00:00Z" } } })
        expectValidation(badAt, [])
        expect(Object.keys(badAt.body.errors).some((key) => key.startsWith("trigger")), badAt.text).toBe(true)
        const automation = yield* create({
          email_list_uuid: list.uuid,
          trigger: { type: "date", at: "2020-01-01 00:00:00" },
          actions: [{ type: "add_tags", tags: ["dated"] }]
        })
        expect(automation.trigger).toEqual({ type: "date", at: "2020-01-01 00:00:00", repeat: "none" })
        yield* runAutomations
        expect(yield* positions(automation.uuid)).toEqual([])
        yield* start(automation.uuid)
        yield* runAutomations
        expect((yield* positions(automation.uuid)).map((p) => p.subscriber_uuid).sort()).toEqual([ada, bob].sort())
        yield* later(60 * 24 * 2)(runAutomations)
        expect(yield* positions(automation.uuid)).toHaveLength(2)
        expect((yield* subscriber(cy)).tags).toEqual([])
      }))

    it.effect("a split runs both branches to their ends; the unsubscribe action unsubscribes and ends the run", () =>
      Effect.gen(function*() {
        const { runAutomations } = yield* TestServer
        const list = yield* aList
        const ada = yield* subscribe(list, "ada")
        const automation = yield* webhookFlow(list, [
          { type: "add_tags", tags: ["before"] },
          { type: "split", left: [{ type: "add_tags", tags: ["left"] }], right: [{ type: "add_tags", tags: ["right"] }, { type: "unsubscribe" }] }
        ])
        yield* trigger(automation.uuid, [ada])
        yield* runAutomations
        const shown = yield* subscriber(ada)
        expect(shown.tags.sort()).toEqual(["before", "left", "right"])
        expect(shown.unsubscribed_at).toMatch(TIMESTAMP)
        const split = automation.actions[1]
        const counts = yield* countsOf(automation.uuid)
        expect(counts[split.uuid]).toEqual({ active: 0, completed: 1, halted: 0 })
        expect(counts[split.left[0].uuid]).toEqual({ active: 0, completed: 1, halted: 0 })
        expect(counts[split.right[0].uuid]).toEqual({ active: 0, completed: 1, halted: 0 })
        expect(counts[split.right[1].uuid]).toEqual({ active: 0, completed: 1, halted: 0 })
        expect((yield* positions(automation.uuid)).every((p) => p.state === "completed" && p.subscriber_uuid === ada)).toBe(true)
      }))

    it.effect("a paused automation keeps its subscribers where they are and runs nobody until started again", () =>
      Effect.gen(function*() {
        const { call, runAutomations } = yield* TestServer
        const list = yield* aList
        const ada = yield* subscribe(list, "ada")
        const automation = yield* webhookFlow(list, [{ type: "wait", length: 5, unit: "minutes" }, { type: "add_tags", tags: ["done"] }])
        yield* trigger(automation.uuid, [ada])
        expectStatus(yield* call("POST", `/api/automations/${automation.uuid}/pause`), 204)
        yield* later(10)(runAutomations)
        expect((yield* positions(automation.uuid))[0]).toMatchObject({ state: "active", action_uuid: automation.actions[0].uuid })
        expect((yield* subscriber(ada)).tags).toEqual([])
        yield* start(automation.uuid)
        yield* later(10)(runAutomations)
        expect((yield* positions(automation.uuid))[0]).toMatchObject({ state: "completed" })
        expect((yield* subscriber(ada)).tags).toEqual(["done"])
      }))

    it.effect("a repeating automation sends its mail again on each run: one Send per run, never two in one run", () =>
      Effect.gen(function*() {
        const { call, deliverAutomationMails, mails, runAutomations } = yield* TestServer
        const list = yield* aList
        const ada = yield* subscribe(list, "ada")
        const mail = yield* aMail({ subject: "Again" })
        const automation = yield* webhookFlow(list, [
          { type: "send_mail", automation_mail_uuid: mail },
          { type: "send_mail", automation_mail_uuid: mail }
        ], { repeat_enabled: true, repeat_only_after_halt: false })
        yield* trigger(automation.uuid, [ada])
        yield* runAutomations
        yield* deliverAutomationMails
        expect((yield* call("GET", `/api/sends?filter[automation_mail_uuid]=${mail}`)).body.meta.total).toBe(1)
        expect((yield* trigger(automation.uuid, [ada])).queued).toBe(1)
        yield* runAutomations
        yield* deliverAutomationMails
        const sends = (yield* call("GET", `/api/sends?filter[automation_mail_uuid]=${mail}`)).body
        expect(sends.meta.total).toBe(2)
        expect(sends.data.every((s: { subscriber_uuid: string; sent_at: string | null }) => s.subscriber_uuid === ada && s.sent_at !== null)).toBe(true)
        expect((yield* mails).filter((m) => m.to.email === `ada@${list.domain}`)).toHaveLength(2)
      }))

    it.effect("start checks the actions again: a mail deleted while paused makes start a 422 naming the action", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* aList
        const mail = yield* aMail()
        const automation = yield* webhookFlow(list, [{ type: "wait", length: 1, unit: "days" }, { type: "send_mail", automation_mail_uuid: mail }])
        expectStatus(yield* call("POST", `/api/automations/${automation.uuid}/pause`), 204)
        expectStatus(yield* call("DELETE", `/api/automation-mails/${mail}`), 204)
        const refused = yield* call("POST", `/api/automations/${automation.uuid}/start`)
        expectValidation(refused, ["actions.1.automation_mail_uuid"])
        expect((yield* getAutomation(automation.uuid)).status).toBe("paused")
      }))

    it.effect("condition opened: opening the mail (its tracking pixel) takes the yes branch; not opening it, the no branch when the window ends", () =>
      Effect.gen(function*() {
        const { deliverAutomationMails, mails, runAutomations, url } = yield* TestServer
        const list = yield* aList
        const [ada, bob] = [yield* subscribe(list, "ada"), yield* subscribe(list, "bob")]
        const mail = yield* aMail({ subject: "Open me", html: "<html><body><p>Hi</p></body></html>" })
        const automation = yield* webhookFlow(list, [
          { type: "send_mail", automation_mail_uuid: mail },
          {
            type: "condition",
            condition: { type: "opened", automation_mail_uuid: mail },
            window: { length: 1, unit: "days" },
            yes: [{ type: "add_tags", tags: ["opened"] }],
            no: [{ type: "add_tags", tags: ["ignored"] }]
          }
        ])
        yield* trigger(automation.uuid, [ada, bob])
        yield* runAutomations
        yield* deliverAutomationMails
        const toAda = (yield* mails).find((m) => m.to.email === `ada@${list.domain}`)!
        const pixel = [...toAda.html.matchAll(/src="([^"]+)"/g)].map((m) => m[1]!).find((u) => u.includes("/t/o/"))
        expect(pixel, toAda.html).toBeDefined()
        const opened = yield* Effect.promise(() => fetch(pixel!.replace("http://mailroom.test", url)).then((r) => r.status))
        expect(opened).toBe(200)
        yield* later(20)(runAutomations)
        expect((yield* subscriber(ada)).tags).toEqual(["opened"])
        expect((yield* subscriber(bob)).tags).toEqual([])
        yield* later(60 * 24 + 5)(runAutomations)
        expect((yield* subscriber(bob)).tags).toEqual(["ignored"])
        expect((yield* positions(automation.uuid)).map((p) => p.state)).toEqual(["completed", "completed"])
      }))

    it.effect("an attribute_date trigger enrols the members whose date (plus offset) is today", () =>
      Effect.gen(function*() {
        const { runAutomations } = yield* TestServer
        const list = yield* aList
        const today = new Date().toISOString().slice(0, 10)
        const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
        const born = yield* subscribe(list, "born", { extra_attributes: { birthday: `1990-${today.slice(5)}` } })
        const renewal = yield* subscribe(list, "renewal", { extra_attributes: { birthday: yesterday } })
        yield* subscribe(list, "other", { extra_attributes: { birthday: "1990-01-01" === `1990-${today.slice(5)}` ? "1990-01-02" : "1990-01-01" } })
        yield* subscribe(list, "none")
        const yearly = yield* create({
          email_list_uuid: list.uuid,
          trigger: { type: "attribute_date", attribute: "birthday", yearly: true },
          actions: [{ type: "add_tags", tags: ["birthday"] }]
        })
        const offset = yield* create({
          email_list_uuid: list.uuid,
          trigger: { type: "attribute_date", attribute: "birthday", offset_days: 1 },
          actions: [{ type: "add_tags", tags: ["day-after"] }]
        })
        yield* start(yearly.uuid)
        yield* start(offset.uuid)
        yield* runAutomations
        expect((yield* positions(yearly.uuid)).map((p) => p.subscriber_uuid)).toEqual([born])
        expect((yield* positions(offset.uuid)).map((p) => p.subscriber_uuid)).toEqual([renewal])
        expect((yield* subscriber(born)).tags).toEqual(["birthday"])
      }))

    it.effect("PUT of a started automation's trigger to a past date enrols the members; filters of the positions collection", () =>
      Effect.gen(function*() {
        const { call, runAutomations } = yield* TestServer
        const list = yield* aList
        const [ada, bob] = [yield* subscribe(list, "ada"), yield* subscribe(list, "bob")]
        const automation = yield* webhookFlow(list, [{ type: "wait", length: 1, unit: "days" }])
        yield* runAutomations
        expect(yield* positions(automation.uuid)).toEqual([])
        const put = yield* call("PUT", `/api/automations/${automation.uuid}`, { body: { trigger: { type: "date", at: "2021-06-01 12:00:00" } } })
        expectStatus(put, 200)
        expect(put.body.data.status).toBe("started")
        yield* runAutomations
        const where = yield* positions(automation.uuid)
        expect(where.map((p) => p.subscriber_uuid).sort()).toEqual([ada, bob].sort())
        expect((yield* positions(automation.uuid, `&filter[subscriber_uuid]=${bob}`)).map((p) => p.subscriber_uuid)).toEqual([bob])
        expect(yield* positions(automation.uuid, `&filter[action_uuid]=${automation.actions[0].uuid}`)).toHaveLength(2)
        expect(yield* positions(automation.uuid, "&filter[state]=halted")).toEqual([])
        expectMessageOnly(yield* call("GET", `/api/automations/${automation.uuid}/subscribers?sort=email`), 400)
      }))

    it.effect("the same subscriber named twice in one trigger call, or in concurrent calls, enters once", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* aList
        const [ada, bob] = [yield* subscribe(list, "ada"), yield* subscribe(list, "bob")]
        const automation = yield* webhookFlow(list, [{ type: "wait", length: 1, unit: "days" }])
        const twice = yield* trigger(automation.uuid, [ada, ada])
        expect(twice.queued).toBe(1)
        expect(twice.skipped).toEqual([{ uuid: ada, reason: "The subscriber is named more than once in this call." }])
        expect(yield* positions(automation.uuid)).toHaveLength(1)
        const replies = yield* Effect.all(
          Array.from({ length: 8 }, () => call("POST", `/api/automations/${automation.uuid}/trigger`, { body: { subscribers: [bob] } })),
          { concurrency: "unbounded" }
        )
        for (const r of replies) expectStatus(r, 200)
        expect(replies.reduce((sum, r) => sum + r.body.data.queued, 0)).toBe(1)
        const where = yield* positions(automation.uuid)
        expect(where.map((p) => p.subscriber_uuid).sort()).toEqual([ada, bob].sort())
      }))

    it.effect("events from before the start do not enrol; a halt action halts the run where it stands", () =>
      Effect.gen(function*() {
        const list = yield* aList
        const automation = yield* create({
          email_list_uuid: list.uuid,
          trigger: { type: "subscribed" },
          actions: [{ type: "add_tags", tags: ["in"] }, { type: "halt" }, { type: "add_tags", tags: ["never"] }]
        })
        const early = yield* subscribe(list, "early")
        yield* start(automation.uuid)
        const late = yield* subscribe(list, "late")
        const where = yield* enrolled(automation.uuid, 1)
        expect(where.map((p) => [p.subscriber_uuid, p.state, p.action_uuid])).toEqual([[late, "halted", automation.actions[1].uuid]])
        expect((yield* subscriber(late)).tags).toEqual(["in"])
        expect((yield* subscriber(early)).tags).toEqual([])
        const counts = yield* countsOf(automation.uuid)
        expect(counts[automation.actions[0].uuid]).toEqual({ active: 0, completed: 1, halted: 0 })
        expect(counts[automation.actions[1].uuid]).toEqual({ active: 0, completed: 0, halted: 1 })
        expect(counts[automation.actions[2].uuid]).toEqual({ active: 0, completed: 0, halted: 0 })
      }))

    it.effect("a deleted subscriber is halted at the next step; deleting an automation with subscribers in it is 204", () =>
      Effect.gen(function*() {
        const { call, runAutomations } = yield* TestServer
        const list = yield* aList
        const [ada, bob] = [yield* subscribe(list, "ada"), yield* subscribe(list, "bob")]
        const automation = yield* webhookFlow(list, [{ type: "wait", length: 5, unit: "minutes" }, { type: "add_tags", tags: ["done"] }])
        yield* trigger(automation.uuid, [ada, bob])
        expectStatus(yield* call("DELETE", `/api/subscribers/${bob}`), 204)
        yield* later(6)(runAutomations)
        const counts = yield* countsOf(automation.uuid)
        expect(counts[automation.actions[0].uuid]).toEqual({ active: 0, completed: 1, halted: 1 })
        const where = yield* positions(automation.uuid)
        expect(where.map((p) => p.state).sort()).toEqual(["completed", "halted"])
        expect(where.find((p) => p.state === "completed").subscriber_uuid).toBe(ada)
        const other = yield* webhookFlow(list, [{ type: "wait", length: 5, unit: "minutes" }])
        yield* trigger(other.uuid, [ada])
        expectStatus(yield* call("DELETE", `/api/automations/${other.uuid}`), 204)
        yield* later(6)(runAutomations)
        expectMessageOnly(yield* call("GET", `/api/automations/${other.uuid}/subscribers`), 404)
        expect((yield* subscriber(ada)).tags).toEqual(["done"])
      }))

    it.scoped("a webhook action failing for more than a day halts its subscriber there", () =>
      Effect.gen(function*() {
        const { runAutomations } = yield* TestServer
        const receiver = yield* webhookReceiver
        const list = yield* aList
        const ada = yield* subscribe(list, "ada")
        const automation = yield* webhookFlow(list, [{ type: "webhook", url: receiver.url, secret: newSecret() }, { type: "add_tags", tags: ["hooked"] }])
        receiver.answerNext(503, 503, 503)
        yield* trigger(automation.uuid, [ada])
        yield* runAutomations
        yield* later(60 * 12)(runAutomations)
        expect((yield* positions(automation.uuid))[0]).toMatchObject({ state: "active", action_uuid: automation.actions[0].uuid })
        yield* later(60 * 25)(runAutomations)
        expect(receiver.received).toHaveLength(3)
        expect((yield* positions(automation.uuid))[0]).toMatchObject({ state: "halted", action_uuid: automation.actions[0].uuid })
        expect((yield* countsOf(automation.uuid))[automation.actions[0].uuid]).toEqual({ active: 0, completed: 0, halted: 1 })
        expect((yield* subscriber(ada)).tags).toEqual([])
      }))

    it.effect("repeat only after halt: a halted run lets the subscriber enter again, an active one does not", () =>
      Effect.gen(function*() {
        const { runAutomations } = yield* TestServer
        const list = yield* aList
        const [ada, bob] = [yield* subscribe(list, "ada", { tags: ["stop"] }), yield* subscribe(list, "bob")]
        const automation = yield* webhookFlow(list, [{
          type: "condition",
          condition: { type: "has_tag", tag: "stop" },
          window: { length: 1, unit: "days" },
          yes: [{ type: "halt" }],
          no: []
        }], { repeat_enabled: true })
        expect((yield* trigger(automation.uuid, [ada, bob])).queued).toBe(2)
        yield* runAutomations
        const where = Object.fromEntries((yield* positions(automation.uuid)).map((p) => [p.subscriber_uuid, p.state]))
        expect(where).toEqual({ [ada]: "halted", [bob]: "active" })
        const again = yield* trigger(automation.uuid, [ada, bob])
        expect(again.queued).toBe(1)
        expect(again.skipped.map((s) => s.uuid)).toEqual([bob])
        expect((yield* positions(automation.uuid, `&filter[subscriber_uuid]=${ada}`)).map((p) => p.state).sort()).toEqual(["active", "halted"])
      }))

    it.effect("a daily date trigger enrols the members at each occurrence, again on the next day", () =>
      Effect.gen(function*() {
        const { runAutomations } = yield* TestServer
        const list = yield* aList
        const ada = yield* subscribe(list, "ada")
        const hourAgo = new Date(Date.now() - 60 * MINUTE).toISOString().replace("T", " ").slice(0, 19)
        const automation = yield* create({
          email_list_uuid: list.uuid,
          trigger: { type: "date", at: hourAgo, repeat: "daily" },
          actions: [{ type: "add_tags", tags: ["daily"] }]
        })
        yield* start(automation.uuid)
        yield* runAutomations
        expect(yield* positions(automation.uuid)).toEqual([])
        yield* later(23 * 60 + 5)(runAutomations)
        expect((yield* positions(automation.uuid)).map((p) => [p.subscriber_uuid, p.state])).toEqual([[ada, "completed"]])
        yield* later(23 * 60 + 30)(runAutomations)
        expect(yield* positions(automation.uuid)).toHaveLength(1)
        yield* later(47 * 60 + 5)(runAutomations)
        expect((yield* positions(automation.uuid)).map((p) => [p.subscriber_uuid, p.state])).toEqual([[ada, "completed"], [ada, "completed"]])
      }))

    it.effect("subscribed trigger with repeat after halt: unsubscribing halts the run, resubscribing enters again", () =>
      Effect.gen(function*() {
        const { call, runAutomations } = yield* TestServer
        const list = yield* aList
        const automation = yield* create({
          email_list_uuid: list.uuid,
          trigger: { type: "subscribed" },
          actions: [{ type: "wait", length: 5, unit: "minutes" }, { type: "add_tags", tags: ["done"] }],
          repeat_enabled: true
        })
        yield* start(automation.uuid)
        const ada = yield* subscribe(list, "ada")
        yield* enrolled(automation.uuid, 1)
        expectStatus(yield* call("POST", `/api/subscribers/${ada}/unsubscribe`), 204)
        yield* later(6)(runAutomations)
        expect((yield* positions(automation.uuid)).map((p) => p.state)).toEqual(["halted"])
        expectStatus(yield* call("POST", `/api/subscribers/${ada}/resubscribe`), 204)
        const both = yield* enrolled(automation.uuid, 2)
        expect(both.map((p) => p.state).sort()).toEqual(["active", "halted"])
        yield* later(6)(runAutomations)
        expect((yield* positions(automation.uuid)).map((p) => p.state).sort()).toEqual(["completed", "halted"])
        expect((yield* subscriber(ada)).tags).toEqual(["done"])
      }))

    it.effect("deleting the segment of an automation: nobody enters any more, and a PUT of only the name does not change that", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* aList
        const ada = yield* subscribe(list, "ada", { tags: ["member"] })
        const bob = yield* subscribe(list, "bob")
        const seg = yield* call("POST", `/api/email-lists/${list.uuid}/segments`, { body: { name: unique("seg"), positive_tags: ["member"] } })
        expectStatus(seg, 201)
        const automation = yield* webhookFlow(list, [{ type: "wait", length: 1, unit: "days" }], { segment_uuid: seg.body.data.uuid })
        expect((yield* trigger(automation.uuid, [bob])).queued).toBe(0)
        expectStatus(yield* call("DELETE", `/api/email-lists/${list.uuid}/segments/${seg.body.data.uuid}`), 204)
        expect((yield* trigger(automation.uuid, [ada])).queued).toBe(0)
        const shown = (yield* getAutomation(automation.uuid)).segment_uuid
        const renamed = yield* call("PUT", `/api/automations/${automation.uuid}`, { body: { name: "Renamed" } })
        expectStatus(renamed, 200)
        const afterPut = yield* trigger(automation.uuid, [bob])
        expect(afterPut.queued, `bob entered after a PUT of the name only (GET showed segment_uuid ${JSON.stringify(shown)} before it)`).toBe(0)
      }))

    it.effect("a has_tag condition is checked again while its window is open: a tag added meanwhile takes the yes branch", () =>
      Effect.gen(function*() {
        const { call, runAutomations } = yield* TestServer
        const list = yield* aList
        const bob = yield* subscribe(list, "bob")
        const automation = yield* webhookFlow(list, [{
          type: "condition",
          condition: { type: "has_tag", tag: "buyer" },
          window: { length: 1, unit: "days" },
          yes: [{ type: "add_tags", tags: ["thanked"] }],
          no: [{ type: "add_tags", tags: ["nudged"] }]
        }])
        yield* trigger(automation.uuid, [bob])
        yield* runAutomations
        expect((yield* positions(automation.uuid))[0]).toMatchObject({ state: "active", action_uuid: automation.actions[0].uuid })
        expectStatus(yield* call("POST", `/api/subscribers/${bob}/tags`, { body: { tags: ["buyer"] } }), 200)
        yield* later(16)(runAutomations)
        expect((yield* subscriber(bob)).tags.sort()).toEqual(["buyer", "thanked"])
        expect((yield* positions(automation.uuid))[0]).toMatchObject({ state: "completed" })
      }))

    it.effect("unsubscribing through an automation mail's link unsubscribes from the list and halts the subscriber at the next step", () =>
      Effect.gen(function*() {
        const { deliverAutomationMails, mails, runAutomations, url } = yield* TestServer
        const list = yield* aList
        const ada = yield* subscribe(list, "ada")
        const mail = yield* aMail({ html: "<p>Hi</p><a href=\"{{ unsubscribeUrl }}\">Unsubscribe</a>" })
        const automation = yield* webhookFlow(list, [
          { type: "send_mail", automation_mail_uuid: mail },
          { type: "wait", length: 5, unit: "minutes" },
          { type: "add_tags", tags: ["done"] }
        ])
        yield* trigger(automation.uuid, [ada])
        yield* runAutomations
        yield* deliverAutomationMails
        const toAda = (yield* mails).find((m) => m.to.email === `ada@${list.domain}`)!
        const link = /href="([^"]*\/u\/[^"]+)"/.exec(toAda.html)![1]!.replace("http://mailroom.test", url)
        const status = yield* Effect.promise(() =>
          fetch(link, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } }).then((r) => r.status))
        expect(status).toBe(200)
        expect((yield* subscriber(ada)).unsubscribed_at).toMatch(TIMESTAMP)
        yield* later(6)(runAutomations)
        expect((yield* positions(automation.uuid))[0]).toMatchObject({ state: "halted", action_uuid: automation.actions[1].uuid })
        expect((yield* subscriber(ada)).tags).toEqual([])
      }))
  })
})
