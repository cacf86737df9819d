import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, TIMESTAMP, unique } from "./expectations.js"
import { APP_URL, stores, TestServer, TestServerLive } from "./TestServer.js"

const HTML = "<html><body><p>Hi {{ subscriber.first_name }}</p><a href=\"https://example.com/a\">A</a></body></html>"

/** Sums a count over entries. */
const total = (entries: ReadonlyArray<Record<string, unknown>>, key: string) => entries.reduce((n, e) => n + (e[key] as number), 0)

describe.each(stores)("daily statistics and campaign timelines on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const get = (url: string) => Effect.promise(() => fetch(url, { redirect: "manual" }).then((r) => r.status))

    /** A campaign sent to ada and bob; ada opened it and clicked its link. */
    const engaged = Effect.gen(function*() {
      const { call, deliver, mails, url } = yield* TestServer
      const domain = `${unique("a")}.example`
      const list = (yield* call("POST", "/api/email-lists", { body: { name: unique("L"), default_from_email: `n@${domain}` } })).body.data
      for (const name of ["ada", "bob"]) {
        yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, { body: { email: `${name}@${domain}`, first_name: name } })
      }
      const campaign = (yield* call("POST", "/api/campaigns", { body: { name: unique("C"), email_list_uuid: list.uuid, html: HTML } }))
        .body.data.uuid as string
      expectStatus(yield* call("POST", `/api/campaigns/${campaign}/send`), 204)
      yield* deliver
      const html = (yield* mails).find((m) => m.to.email === `ada@${domain}`)!.html
      const found = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!.replace(APP_URL, url))
      expect(yield* get(found.find((u) => u.includes("/t/o/"))!)).toBe(200)
      expect(yield* get(found.find((u) => u.includes("/t/c/"))!)).toBe(302)
      return campaign
    })

    it.effect("GET /api/statistics/daily: one zero-filled entry per UTC day ending today, counting every mail", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const before = yield* call("GET", "/api/statistics/daily?days=7")
        expectStatus(before, 200)
        yield* engaged
        const after = yield* call("GET", "/api/statistics/daily?days=7")
        expect(Object.keys(after.body)).toEqual(["data"])
        const days = after.body.data as Array<Record<string, unknown>>
        expect(days.length).toBe(7)
        const today = new Date().toISOString().slice(0, 10)
        expect(days[6]!.date).toBe(today)
        for (const [i, day] of days.entries()) {
          expect(Object.keys(day).sort()).toEqual(["clicks", "date", "opens", "sent"])
          expect(day.date).toBe(new Date(Date.parse(`${today}T00:00:00Z`) - (6 - i) * 86_400_000).toISOString().slice(0, 10))
        }
        expect(total(days, "sent") - total(before.body.data, "sent")).toBe(2)
        expect(total(days, "opens") - total(before.body.data, "opens")).toBe(1)
        expect(total(days, "clicks") - total(before.body.data, "clicks")).toBe(1)
        expect((yield* call("GET", "/api/statistics/daily")).body.data.length).toBe(30)
        expect((yield* call("GET", "/api/statistics/daily?days=365")).body.data.length).toBe(365)
        expect((yield* call("GET", "/api/statistics/daily?days=1")).body.data.map((d: { date: string }) => d.date)).toEqual([today])
      }))

    it.effect("days outside 1..365 or not a whole number answer 400", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        for (const days of ["0", "366", "-1", "abc", "1.5", "", "99999999999999999999"]) {
          expectMessageOnly(yield* call("GET", `/api/statistics/daily?days=${days}`), 400, "The days parameter must be a whole number from 1 to 365.")
        }
      }))

    it.effect("GET /api/campaigns/{campaign}/timeline: hourly opens and clicks since the first mail, zero-filled", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const campaign = yield* engaged
        const r = yield* call("GET", `/api/campaigns/${campaign}/timeline`)
        expectStatus(r, 200)
        expect(Object.keys(r.body.data).sort()).toEqual(["bucket", "points"])
        expect(r.body.data.bucket).toBe("hour")
        const points = r.body.data.points as Array<Record<string, unknown>>
        expect(points.length).toBeGreaterThanOrEqual(1) // two when the hour turned meanwhile
        expect(points.length).toBeLessThanOrEqual(2)
        for (const point of points) {
          expect(Object.keys(point).sort()).toEqual(["at", "clicks", "opens", "sent"])
          expect(point.at).toMatch(TIMESTAMP)
          expect(point.at).toMatch(/T\d{2}:00:00\.000000Z$/)
        }
        expect(Date.parse(points[points.length - 1]!.at as string)).toBe(Math.floor(Date.now() / 3_600_000) * 3_600_000)
        expect([total(points, "sent"), total(points, "opens"), total(points, "clicks")]).toEqual([2, 1, 1])
      }))

    it.effect("a campaign with nothing sent has no points; an unknown campaign answers 404; reads need read", () =>
      Effect.gen(function*() {
        const { call, tokenWith } = yield* TestServer
        const list = (yield* call("POST", "/api/email-lists", { body: { name: unique("L"), default_from_email: "n@example.com" } })).body.data
        const draft = (yield* call("POST", "/api/campaigns", { body: { name: unique("D"), email_list_uuid: list.uuid, html: HTML } })).body.data
        expect((yield* call("GET", `/api/campaigns/${draft.uuid}/timeline`)).body).toEqual({ data: { bucket: "hour", points: [] } })
        expectMessageOnly(yield* call("GET", `/api/campaigns/${crypto.randomUUID()}/timeline`), 404)
        expectMessageOnly(yield* call("GET", "/api/campaigns/abc/timeline"), 404)
        const read = yield* tokenWith(["read"])
        expectStatus(yield* call("GET", "/api/statistics/daily", { token: read }), 200)
        expectStatus(yield* call("GET", `/api/campaigns/${draft.uuid}/timeline`, { token: read }), 200)
        expectMessageOnly(yield* call("GET", "/api/statistics/daily", { token: yield* tokenWith(["send"]) }), 403)
      }))
  })
})
