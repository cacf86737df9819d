import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

describe.each(stores)("campaign send-test on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    /** A list with one subscriber (Ada), a draft campaign on it, and a fresh domain for test recipients. */
    const fixture = Effect.gen(function*() {
      const { call } = yield* TestServer
      const domain = `${unique("t")}.example`
      const list = yield* call("POST", "/api/email-lists", { body: { name: unique("Test "), default_from_email: `n@${domain}` } })
      expectStatus(list, 201)
      const listUuid = list.body.data.uuid as string
      const sub = yield* call("POST", `/api/email-lists/${listUuid}/subscribers`, {
        body: { email: `ada@${domain}`, first_name: "Ada" }
      })
      expectStatus(sub, 201)
      const c = yield* call("POST", "/api/campaigns", {
        body: {
          name: unique("Trial "),
          email_list_uuid: listUuid,
          subject: "Hello {{ subscriber.first_name }}",
          html: "<p>Dear {{ subscriber.first_name }}</p>"
        }
      })
      expectStatus(c, 201)
      return { list: listUuid, domain, campaign: c.body.data.uuid as string }
    })
    const sendTest = (campaign: string, body: unknown) =>
      Effect.flatMap(TestServer, ({ call }) => call("POST", `/api/campaigns/${campaign}/send-test`, { body }))
    /** Runs due jobs, then the mails caught for addresses on `domain`. */
    const mailsOn = (domain: string) =>
      Effect.gen(function*() {
        const { mails, runJobs } = yield* TestServer
        yield* runJobs
        return (yield* mails).filter((m) => m.to.email.toLowerCase().endsWith(`@${domain}`))
      })

    it.effect("two addresses get a [Test] mail each; the campaign stays a draft and nothing is counted", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { campaign, domain } = yield* fixture
        const r = yield* sendTest(campaign, { email: `a@${domain}, b@${domain}` })
        expectStatus(r, 204)
        expect(r.text).toBe("")
        const mails = yield* mailsOn(domain)
        expect(mails.map((m) => m.to.email).sort()).toEqual([`a@${domain}`, `b@${domain}`])
        for (const mail of mails) {
          expect(mail.subject.startsWith("[Test] Hello")).toBe(true)
          expect(mail.from.email).toBe(`n@${domain}`)
        }
        const c = yield* call("GET", `/api/campaigns/${campaign}`)
        expect(c.body.data).toMatchObject({ status: "draft", sent_to_number_of_subscribers: "0", sent_at: null })
        const sends = yield* call("GET", `/api/sends?filter[campaign_uuid]=${campaign}`)
        expectStatus(sends, 200)
        expect(sends.body.meta.total).toBe(0)
        // the jobs ran once: running them again sends nothing more
        expect((yield* mailsOn(domain)).length).toBe(2)
      }))

    it.effect("a test mail to a subscriber of the list is personalised with that subscriber", () =>
      Effect.gen(function*() {
        const { campaign, domain } = yield* fixture
        expectStatus(yield* sendTest(campaign, { email: `ada@${domain}` }), 204)
        const mails = yield* mailsOn(domain)
        expect(mails.length).toBe(1)
        expect(mails[0]!.subject).toBe("[Test] Hello Ada")
        expect(mails[0]!.html).toContain("Dear Ada")
      }))

    it.effect("ten addresses are accepted; eleven answer 422 'You can only specify 10 items'", () =>
      Effect.gen(function*() {
        const { campaign, domain } = yield* fixture
        const addresses = (n: number) => Array.from({ length: n }, (_, i) => `r${i}@${domain}`).join(",")
        const eleven = yield* sendTest(campaign, { email: addresses(11) })
        expectValidation(eleven, ["email"])
        expect(eleven.body.errors.email).toContain("You can only specify 10 items")
        expect(yield* mailsOn(domain)).toEqual([])
        expectStatus(yield* sendTest(campaign, { email: addresses(10) }), 204)
        expect((yield* mailsOn(domain)).length).toBe(10)
      }))

    it.effect("duplicates (any case), invalid and empty addresses answer 422 on email and mail nobody", () =>
      Effect.gen(function*() {
        const { campaign, domain } = yield* fixture
        const dup = yield* sendTest(campaign, { email: `a@${domain}, A@${domain.toUpperCase()}` })
        expectValidation(dup, ["email"])
        expect(dup.body.errors.email).toContain("You may not specify duplicates.")
        for (const email of ["not-an-email", `a@${domain}, nope`, `a@${domain},,b@`, "", "  ", " , ", null, 5, ["a@b.com"]]) {
          expectValidation(yield* sendTest(campaign, { email }), ["email"])
        }
        expectValidation(yield* sendTest(campaign, {}), ["email"])
        expect(yield* mailsOn(domain)).toEqual([])
      }))

    it.effect("send-test of a sent campaign answers 422 on campaign; of an unknown one 404", () =>
      Effect.gen(function*() {
        const { call, deliver } = yield* TestServer
        const { campaign, domain } = yield* fixture
        expectStatus(yield* call("POST", `/api/campaigns/${campaign}/send`), 204)
        yield* deliver
        const before = (yield* mailsOn(domain)).length
        expectValidation(yield* sendTest(campaign, { email: `x@${domain}` }), ["campaign"])
        expect((yield* mailsOn(domain)).length).toBe(before)
        expectMessageOnly(yield* sendTest("00000000-0000-4000-8000-000000000000", { email: `x@${domain}` }), 404)
      }))
  })
})
