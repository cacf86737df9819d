import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

describe.each(stores)("smoke on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    it.effect("creates and reads a template", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const created = yield* call("POST", "/api/templates", { body: { name: "Hello", html: "<p>x</p>" } })
        expect(created.status).toBe(201)
        const read = yield* call("GET", `/api/templates/${created.body.data.uuid}`)
        expect(read.body.data.html).toBe("<p>x</p>\n")
        const bad = yield* call("POST", "/api/templates", { body: "{oops" })
        expect(bad.status).toBe(422)
        const list = yield* call("GET", "/api/templates?filter[nope]=1")
        expect(list.status).toBe(400)
      }))
  })
})
