/** Import row rules for new addresses: headers, columns, extra attributes, duplicates, refusals, confirmation, suppressions. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectStatus, expectValidation, TIMESTAMP, unique } from "./expectations.js"
import {
  createList,
  expectExactActiveCount,
  importAction,
  importErrors,
  INVALID,
  postImport,
  runImport,
  subscribersOf,
  tagCounts
} from "./imports.support.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const sorted = (names: ReadonlyArray<string>) => [...names].sort((a, b) => a.localeCompare(b))

describe.each(stores)("subscriber import rules on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    it.effect("every accepted email header, in any case, reads the address column; addresses are lower-cased", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const headers = ["email", "Email", "Email Address", "email address", "e-mail", "email_address", "EMAIL", "E-Mail", "EMAIL_ADDRESS"]
        const expected: Array<string> = []
        for (const [i, header] of headers.entries()) {
          const done = yield* runImport(list, `first_name,${header}\nAnn,Mixed.Case${i}@Example.COM\n`)
          expect(done, header).toMatchObject({ imported_subscribers_count: 1, error_count: 0 })
          expected.push(`mixed.case${i}@example.com`)
        }
        const subscribers = yield* subscribersOf(list)
        expect(sorted([...subscribers.keys()])).toEqual(sorted(expected))
        for (const s of subscribers.values()) expect(s.first_name).toBe("Ann")
        const bom = yield* runImport(list, "\uFEFFEmail,first_name\r\nbom@example.com,Ann\r\n")
        expect(bom).toMatchObject({ imported_subscribers_count: 1, error_count: 0 })
        expected.push("bom@example.com")
        for (const header of ["mail", "emails", "address", "e mail"]) {
          const r = yield* postImport({ subscribers_csv: `${header}\nx@example.com\n`, email_list_id: list.id, subscribe_unsubscribed: false, unsubscribe_others: false })
          expectStatus(r, 200)
          expectValidation(yield* importAction(r.body.data.id, "start"), ["file"])
        }
        yield* expectExactActiveCount(list, headers.length + 1)
      }))

    it.effect("names, tags, subscribed_at, unsubscribed_at and other columns (as extra attributes) are stored", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const csv = [
          "Email,First Name,last name,Tags,subscribed_at,unsubscribed_at,plan,Company,notes",
          "ada@example.com,Ada,Lovelace,vip; Beta|gamma ,2020-01-02 03:04:05,,pro,ACME,",
          "bob@example.com,,,,,,,,",
          "cy@example.com,Cy,Young,vip,2019-05-06,2021-07-08T09:10:11Z,,,left",
          "zoe@example.com,Zoë,Ågren-Łukasz,,,,✓ plan,,"
        ].join("\n")
        const done = yield* runImport(list, csv)
        expect(done).toMatchObject({ imported_subscribers_count: 4, error_count: 0 })
        const s = yield* subscribersOf(list)
        expect(s.get("zoe@example.com")).toMatchObject({ first_name: "Zoë", last_name: "Ågren-Łukasz", extra_attributes: { plan: "✓ plan" } })
        expect(s.get("ada@example.com")).toMatchObject({
          first_name: "Ada",
          last_name: "Lovelace",
          extra_attributes: { plan: "pro", Company: "ACME" },
          subscribed_at: "2020-01-02T03:04:05.000000Z",
          unsubscribed_at: null
        })
        expect(sorted(s.get("ada@example.com").tags)).toEqual(["Beta", "gamma", "vip"])
        expect(s.get("bob@example.com")).toMatchObject({ first_name: null, last_name: null, extra_attributes: [], tags: [], unsubscribed_at: null })
        expect(s.get("bob@example.com").subscribed_at).toMatch(TIMESTAMP)
        expect(s.get("cy@example.com")).toMatchObject({
          extra_attributes: { notes: "left" },
          subscribed_at: "2019-05-06T00:00:00.000000Z",
          unsubscribed_at: "2021-07-08T09:10:11.000000Z",
          tags: ["vip"]
        })
        expect(yield* tagCounts(list)).toEqual({ vip: 2, Beta: 1, gamma: 1 })
        yield* expectExactActiveCount(list, 3)
      }))

    it.effect("a repeated address is skipped (the first row wins), counted as processed and not as an error", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const csv = "email,first_name,tags,plan\ndup@example.com,First,one,a\nother@example.com,Other,,\n DUP@Example.com ,Second,two,b\n"
        const done = yield* runImport(list, csv)
        expect(done).toMatchObject({ imported_subscribers_count: 3, error_count: 0 })
        expect(yield* importErrors(done.id)).toEqual([])
        const s = yield* subscribersOf(list)
        expect(s.size).toBe(2)
        expect(s.get("dup@example.com")).toMatchObject({ first_name: "First", tags: ["one"], extra_attributes: { plan: "a" } })
        expect(yield* tagCounts(list)).toEqual({ one: 1 })
        yield* expectExactActiveCount(list, 2)
      }))

    it.effect("invalid addresses and unreadable rows amid valid ones are refused by line; the rest is imported", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const csv = [
          "email,first_name",
          "a1@example.com,A",
          "not-an-address,B",
          "\"q\"x@example.com,C",
          "a2@example.com,\"two\r\nlines\"",
          "",
          "user@@example.com,D",
          "a3@example.com,E",
          "@example.com,F",
          "a4@example.com,G"
        ].join("\r\n")
        const done = yield* runImport(list, csv)
        expect(done).toMatchObject({ imported_subscribers_count: 8, error_count: 4 })
        expect(yield* importErrors(done.id)).toEqual([
          { line: 3, email: "not-an-address", reason: INVALID },
          { line: 4, email: "\"q\"x@example.com", reason: INVALID },
          { line: 8, email: "user@@example.com", reason: INVALID },
          { line: 10, email: "@example.com", reason: INVALID }
        ])
        const s = yield* subscribersOf(list)
        expect(sorted([...s.keys()])).toEqual(["a1@example.com", "a2@example.com", "a3@example.com", "a4@example.com"])
        expect(s.get("a2@example.com").first_name).toBe("two\r\nlines")
        yield* expectExactActiveCount(list, 4)
      }))

    it.effect("a CSV with only a header completes with nothing imported", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const done = yield* runImport(list, "email,first_name\n")
        expect(done).toMatchObject({ imported_subscribers_count: 0, error_count: 0 })
        yield* expectExactActiveCount(list, 0)
      }))

    it.effect("a row without an address is refused at its line and counted", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const done = yield* runImport(list, "first_name,email\nNobody,\nSomeone,some@example.com\n")
        expect(done).toMatchObject({ imported_subscribers_count: 2, error_count: 1 })
        const errors = yield* importErrors(done.id)
        expect(errors.map((e) => e.line)).toEqual([2])
        expect(errors[0].reason.length).toBeGreaterThan(0)
        yield* expectExactActiveCount(list, 1)
      }))

    it.effect("on a list requiring confirmation rows are subscribed at once and no confirmation mail goes out", () =>
      Effect.gen(function*() {
        const { call, mails, runJobs } = yield* TestServer
        const domain = `${unique("conf")}.example`
        const list = yield* createList({ requires_confirmation: true })
        const pending = yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, { body: { email: `waiting@${domain}` } })
        expectStatus(pending, 201)
        expect(pending.body.data.subscribed_at).toBeNull()
        yield* runJobs
        const before = (yield* mails).filter((m) => m.to.email.endsWith(`@${domain}`)).length
        expect(before).toBe(1)
        const done = yield* runImport(list, `email\nnew@${domain}\nWAITING@${domain}\n`)
        expect(done).toMatchObject({ imported_subscribers_count: 2, error_count: 0 })
        yield* runJobs
        expect((yield* mails).filter((m) => m.to.email.endsWith(`@${domain}`)).length).toBe(before)
        const s = yield* subscribersOf(list)
        for (const address of [`new@${domain}`, `waiting@${domain}`]) {
          expect(s.get(address).subscribed_at, address).toMatch(TIMESTAMP)
          expect(s.get(address).unsubscribed_at, address).toBeNull()
        }
        expect(s.get(`waiting@${domain}`).uuid).toBe(pending.body.data.uuid)
        yield* expectExactActiveCount(list, 2)
      }))

    it.effect("suppressed addresses are imported as subscribers, and a campaign to the list skips them", () =>
      Effect.gen(function*() {
        const { call, deliver, mails } = yield* TestServer
        const domain = `${unique("supp")}.example`
        expectStatus(yield* call("POST", "/api/suppressions", { body: { email: `blocked@${domain}`, reason: "hard_bounce" } }), 201)
        const list = yield* createList()
        const done = yield* runImport(list, `email\nBlocked@${domain}\nfine@${domain}\n`)
        expect(done).toMatchObject({ imported_subscribers_count: 2, error_count: 0 })
        const s = yield* subscribersOf(list)
        expect(s.get(`blocked@${domain}`).subscribed_at).toMatch(TIMESTAMP)
        yield* expectExactActiveCount(list, 2)
        const campaign = yield* call("POST", "/api/campaigns", {
          body: { name: unique("Imported "), email_list_uuid: list.uuid, subject: "Hi", html: "<p>Hello</p>" }
        })
        expectStatus(campaign, 201)
        expectStatus(yield* call("POST", `/api/campaigns/${campaign.body.data.uuid}/send`), 204)
        yield* deliver
        const to = (yield* mails).filter((m) => m.to.email.endsWith(`@${domain}`)).map((m) => m.to.email)
        expect(to).toEqual([`fine@${domain}`])
      }))

    it.effect("new tags are created once per list (case-insensitively) and counted exactly", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* createList()
        expectStatus(yield* call("POST", `/api/email-lists/${list.uuid}/tags`, { body: { name: "Existing" } }), 201)
        const csv = "email,tags\nt1@example.com,existing;NEW\nt2@example.com,new|EXISTING|new\nt3@example.com,\"Third, new\"\n"
        const done = yield* runImport(list, csv)
        expect(done).toMatchObject({ imported_subscribers_count: 3, error_count: 0 })
        expect(yield* tagCounts(list)).toEqual({ Existing: 2, NEW: 3, Third: 1 })
        const s = yield* subscribersOf(list)
        expect(sorted(s.get("t2@example.com").tags)).toEqual(["Existing", "NEW"])
      }))
  })
})
