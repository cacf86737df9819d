import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectStatus, expectValidation, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

describe.each(stores)("request bodies refuse keys their schema does not list on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const newList = Effect.gen(function*() {
      const { call } = yield* TestServer
      const r = yield* call("POST", "/api/email-lists", { body: { name: unique("Keys "), default_from_email: "k@example.com" } })
      expectStatus(r, 201)
      return r.body.data as { id: number; uuid: string }
    })

    it.effect("a typo'd key in a campaign body answers 422 naming it, and nothing is created or changed", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const name = unique("typo ")
        const created = yield* call("POST", "/api/campaigns", { body: { name, email_list_uuid: list.uuid, subjcet: "Hi" } })
        expectValidation(created, ["subjcet"])
        expect(created.body.errors).toEqual({ subjcet: ["The subjcet field is unknown."] })
        const listed = yield* call("GET", `/api/campaigns?filter[search]=${encodeURIComponent(name)}`)
        expect(listed.body.data).toEqual([])

        const campaign = (yield* call("POST", "/api/campaigns", { body: { name, email_list_uuid: list.uuid, subject: "Kept" } })).body.data
        const put = yield* call("PUT", `/api/campaigns/${campaign.uuid}`, {
          body: { name: "renamed", email_list_uuid: list.uuid, subject: "Changed", from_emial: "x@example.com" }
        })
        expectValidation(put, ["from_emial"])
        expect((yield* call("GET", `/api/campaigns/${campaign.uuid}`)).body.data).toEqual(campaign)
      }))

    it.effect("every unknown key is named at once, next to the other field errors; the legacy email_list_id is known", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const list = yield* newList
        const r = yield* call("POST", "/api/campaigns", { body: { nam: "x", email_list_id: list.id, colour: "red" } })
        expectValidation(r, ["nam", "colour", "name"])
        expect(r.body.errors["email_list_id"]).toBeUndefined()
      }))

    it.effect("other bodies too: a template update with a typo changes nothing", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const template = (yield* call("POST", "/api/templates", { body: { name: unique("keys"), html: "<p>a</p>" } })).body.data
        expectStatus(yield* call("POST", "/api/templates", { body: { name: unique("keys"), htm: "<p>b</p>" } }), 422)
        const r = yield* call("PUT", `/api/templates/${template.uuid}`, { body: { name: template.name, html: "<p>b</p>", titel: "x" } })
        expectValidation(r, ["titel"])
        expect((yield* call("GET", `/api/templates/${template.uuid}`)).body.data).toEqual(template)
      }))
  })
})
