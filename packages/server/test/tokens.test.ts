import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, TIMESTAMP, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

const FORBIDDEN = "This action is unauthorized."

describe.each(stores)("API tokens over HTTP on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    it.effect("GET /api/token answers who the token is, whatever its abilities", () =>
      Effect.gen(function*() {
        const { call, tokenWith } = yield* TestServer
        for (const abilities of [["all"], ["read"], ["write"], ["send"], ["read", "send"]] as const) {
          const r = yield* call("GET", "/api/token", { token: yield* tokenWith(abilities) })
          expectStatus(r, 200)
          expect(Object.keys(r.body.data).sort()).toEqual(["abilities", "name", "uuid"])
          expect(r.body.data.abilities).toEqual(abilities)
          expect(r.body.data.uuid).toMatch(/^[0-9a-f-]{36}$/)
        }
        expectMessageOnly(yield* call("GET", "/api/token", { token: null }), 401, "Unauthorized.")
        expectMessageOnly(yield* call("GET", "/api/token", { token: "nope" }), 401, "Unauthorized.")
      }))

    it.effect("creates a token whose secret is shown once and works, lists it, and revokes it", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const name = unique("dash")
        const created = yield* call("POST", "/api/tokens", { body: { name: ` ${name} `, abilities: ["read", "read"] } })
        expectStatus(created, 201)
        const data = created.body.data
        expect(Object.keys(data).sort()).toEqual(["abilities", "created_at", "name", "token", "uuid"])
        expect(data).toMatchObject({ name, abilities: ["read"] })
        expect(data.created_at).toMatch(TIMESTAMP)
        expect(data.token).toMatch(/^mr_/)

        const me = yield* call("GET", "/api/token", { token: data.token })
        expect(me.body.data).toEqual({ uuid: data.uuid, name, abilities: ["read"] })
        expectStatus(yield* call("GET", "/api/templates", { token: data.token }), 200)
        expectMessageOnly(yield* call("POST", "/api/templates", { token: data.token, body: { name: "x" } }), 403, FORBIDDEN)

        const listed = yield* call("GET", "/api/tokens?per_page=100&sort=-created_at")
        expectStatus(listed, 200)
        expect(Object.keys(listed.body).sort()).toEqual(["data", "links", "meta"])
        const item = listed.body.data.find((t: { uuid: string }) => t.uuid === data.uuid)
        expect(item).toEqual({ uuid: data.uuid, name, abilities: ["read"], created_at: data.created_at })
        expect(listed.body.data.every((t: object) => !("token" in t) && !("token_hash" in t))).toBe(true)
        expect(listed.body.meta.total).toBe(listed.body.data.length)

        expectStatus(yield* call("DELETE", `/api/tokens/${data.uuid}`), 204)
        expectMessageOnly(yield* call("GET", "/api/token", { token: data.token }), 401, "Unauthorized.")
        expectMessageOnly(yield* call("DELETE", `/api/tokens/${data.uuid}`), 404)
        expectMessageOnly(yield* call("DELETE", "/api/tokens/not-a-uuid"), 404)
        const after = yield* call("GET", "/api/tokens?per_page=100")
        expect(after.body.data.some((t: { uuid: string }) => t.uuid === data.uuid)).toBe(false)
      }))

    it.effect("refuses bad bodies with field errors", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        expectValidation(yield* call("POST", "/api/tokens", { body: {} }), ["name", "abilities"])
        expectValidation(yield* call("POST", "/api/tokens", { body: { name: " ", abilities: [] } }), ["name", "abilities"])
        expectValidation(yield* call("POST", "/api/tokens", { body: { name: "x", abilities: ["admin"] } }), ["abilities.0"])
        expectValidation(yield* call("POST", "/api/tokens", { body: { name: "x", abilities: "all" } }), ["abilities"])
        expectValidation(yield* call("POST", "/api/tokens", { body: { name: 3, abilities: ["read"] } }), ["name"])
        expectValidation(yield* call("POST", "/api/tokens", { body: { name: "x", abilities: ["read"], secret: "s" } }), ["secret"])
        expectStatus(yield* call("GET", "/api/tokens?sort=secret"), 400)
      }))

    it.effect("token management needs the all ability: read, write and send tokens get 403", () =>
      Effect.gen(function*() {
        const { call, tokenWith } = yield* TestServer
        const victim = (yield* call("POST", "/api/tokens", { body: { name: unique("v"), abilities: ["read"] } })).body.data
        for (const abilities of [["read"], ["write"], ["send"], ["read", "write", "send"]] as const) {
          const token = yield* tokenWith(abilities)
          expectMessageOnly(yield* call("GET", "/api/tokens", { token }), 403, FORBIDDEN)
          expectMessageOnly(yield* call("POST", "/api/tokens", { token, body: { name: "escalate", abilities: ["all"] } }), 403, FORBIDDEN)
          expectMessageOnly(yield* call("POST", "/api/tokens", { token, body: {} }), 403, FORBIDDEN)
          expectMessageOnly(yield* call("DELETE", `/api/tokens/${victim.uuid}`, { token }), 403, FORBIDDEN)
        }
        const me = yield* call("GET", "/api/token", { token: victim.token })
        expectStatus(me, 200)
      }))

    it.effect("a token may revoke itself", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const own = (yield* call("POST", "/api/tokens", { body: { name: unique("self"), abilities: ["all"] } })).body.data
        expectStatus(yield* call("DELETE", `/api/tokens/${own.uuid}`, { token: own.token }), 204)
        expectMessageOnly(yield* call("GET", "/api/token", { token: own.token }), 401, "Unauthorized.")
      }))
  })
})
