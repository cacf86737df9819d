/** NUL characters, which Postgres cannot store in text: every way in answers 4xx and nothing is written. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

describe.each(stores)("NUL characters on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const newList = Effect.gen(function*() {
      const r = yield* (yield* TestServer).call("POST", "/api/email-lists", {
        body: { name: unique("nul"), default_from_email: "news@example.com" }
      })
      expectStatus(r, 201)
      return r.body.data.uuid as string
    })

    it.effect("a filter with NUL answers 400 {message} on every collection", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        for (const path of [
          `/api/email-lists/${list}/subscribers?filter[search]=%00`,
          `/api/email-lists/${list}/subscribers?filter[email]=a%00b`,
          `/api/email-lists/${list}/tags?filter[search]=%00`,
          "/api/templates?filter[search]=x%00",
          "/api/campaigns?filter[search]=%00",
          "/api/email-lists?filter[search]=%00",
          "/api/subscriber-imports?filter[status]=%00"
        ]) {
          const r = yield* call("GET", path)
          expectMessageOnly(r, 400)
          expect(r.body.message).toContain("NUL")
        }
      }))

    it.effect("a body field or tag with NUL answers 422 on that field and creates nothing", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const email = `${unique("ann")}@example.com`
        expectValidation(yield* call("POST", `/api/email-lists/${list}/subscribers`, { body: { email, tags: ["vip\u0000"] } }), ["tags.0"])
        expectValidation(yield* call("POST", `/api/email-lists/${list}/subscribers`, { body: { email, first_name: "A\u0000" } }), ["first_name"])
        expectValidation(yield* call("POST", "/api/templates", { body: { name: "t", html: "<p>\u0000</p>" } }), ["html"])
        expectValidation(yield* call("POST", `/api/email-lists/${list}/tags`, { body: { name: "\u0000" } }), ["name"])
        const r = yield* call("GET", `/api/email-lists/${list}/subscribers?filter[email]=${encodeURIComponent(email)}`)
        expectStatus(r, 200)
        expect(r.body.data).toEqual([])
      }))
  })
})
