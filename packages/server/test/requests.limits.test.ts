import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectMessageOnly, expectStatus, expectValidation, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive, TOKEN } from "./TestServer.js"

describe.each(stores)("request limits on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    const listWithSubscriber = Effect.gen(function*() {
      const { call } = yield* TestServer
      const list = (yield* call("POST", "/api/email-lists", { body: { name: unique("Limits "), default_from_email: "l@example.com" } })).body.data
      const subscriber = (yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, { body: { email: `${unique("s")}@example.com` } }))
        .body.data
      return { list: list.uuid as string, subscriber: subscriber.uuid as string }
    })
    const templateCount = Effect.flatMap(TestServer, ({ call }) => Effect.map(call("GET", "/api/templates"), (r) => r.body.meta.total as number))

    it.effect("bodies nested deeper than 32 levels answer 422 at once, whatever their size, and create nothing", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const before = yield* templateCount
        for (const depth of [33, 10_000, 1_000_000]) {
          const r = yield* call("POST", "/api/templates", { body: `{"name":${"[".repeat(depth)}${"]".repeat(depth)}}` })
          expectValidation(r, ["body"])
          expect(r.body.message).toBe("The request body may nest at most 32 levels deep.")
        }
        // nested 5 deep, the body passes the depth check: only the template schema refuses its unknown key
        const shallow = yield* call("POST", "/api/templates", { body: { name: unique("ok "), html: "<p>x</p>", extra: [[[[1]]]] } })
        expect(shallow.body.errors).toEqual({ extra: ["The extra field is unknown."] })
        expectStatus(yield* call("POST", "/api/templates", { body: { name: unique("ok "), html: "<p>x</p>" } }), 201)
        expect(yield* templateCount).toBe(before + 1)
      }))

    it.effect("arrays over 1,000 items and objects over 1,000 keys answer 422 naming the field; 1,000 tags work", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { subscriber } = yield* listWithSubscriber
        const names = (n: number) => Array.from({ length: n }, (_, i) => `tag-${i}`)
        const tooMany = yield* call("POST", `/api/subscribers/${subscriber}/tags`, { body: { tags: names(40_000) } })
        expectValidation(tooMany, ["tags"])
        expect(tooMany.body.errors.tags).toEqual(["The tags field may have at most 1000 items."])
        const added = yield* call("POST", `/api/subscribers/${subscriber}/tags`, { body: { tags: names(1_000) } })
        expectStatus(added, 200)
        expect(added.body.data.tags).toHaveLength(1_000)
        const keys = Object.fromEntries(Array.from({ length: 500_000 }, (_, i) => [`k${i}`, i]))
        const wide = yield* call("POST", "/api/templates", { body: { name: "wide", ...keys } })
        expectValidation(wide, ["body"])
        const attributes = yield* call("PATCH", `/api/subscribers/${subscriber}`, {
          body: { extra_attributes: Object.fromEntries(names(1_001).map((n) => [n, 1])) }
        })
        expectValidation(attributes, ["extra_attributes"])
      }))

    it.effect("lone surrogates are refused with 422 and change nothing; paired ones (emoji) are kept", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { list } = yield* listWithSubscriber
        const tag = (yield* call("POST", `/api/email-lists/${list}/tags`, { body: { name: unique("tag ") } })).body.data
        const lone = yield* call("PUT", `/api/email-lists/${list}/tags/${tag.uuid}`, { body: "{\"name\":\"a\\ud800b\"}" })
        expectValidation(lone, ["name"])
        expect((yield* call("GET", `/api/email-lists/${list}/tags/${tag.uuid}`)).body.data.name).toBe(tag.name)
        expectValidation(yield* call("PUT", `/api/email-lists/${list}/tags/${tag.uuid}`, { body: "{\"\\udc00\":1,\"name\":\"x\"}" }), ["body"])
        const emoji = yield* call("PUT", `/api/email-lists/${list}/tags/${tag.uuid}`, { body: { name: "party 🎉" } })
        expectStatus(emoji, 200)
        expect(emoji.body.data.name).toBe("party 🎉")
      }))

    it.effect("multipart and other non-JSON bodies answer 415 on the API, multipart everywhere", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const before = yield* templateCount
        const form = "--x\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nhi\r\n--x--\r\n"
        for (const type of ["multipart/form-data; boundary=x", "multipart/form-data", "application/x-www-form-urlencoded", "text/plain"]) {
          const body = type.startsWith("multipart") ? form : type === "text/plain" ? "name=hi" : "name=hi"
          expectMessageOnly(yield* call("POST", "/api/templates", { body, headers: { "content-type": type } }), 415)
        }
        expect(yield* templateCount).toBe(before)
        const publicForm = yield* call("POST", "/u/x/y", { body: form, headers: { "content-type": "multipart/form-data" } })
        expectMessageOnly(publicForm, 415)
        expect(publicForm.headers.get("x-content-type-options")).toBe("nosniff")
        expectStatus(yield* call("POST", "/api/templates", {
          body: { name: unique("json "), html: "<p>x</p>" },
          headers: { "content-type": "application/json; charset=utf-8" }
        }), 201)
        expectValidation(yield* call("POST", "/api/templates", { body: "{\"name\":" }), [])
      }))

    it.effect("a chunked body over 10 MiB answers 413 (not a reset connection); a small chunked body works", () =>
      Effect.gen(function*() {
        const { url } = yield* TestServer
        const before = yield* templateCount
        const chunked = (text: string) =>
          Effect.promise(async () => {
            const bytes = new TextEncoder().encode(text)
            const body = new ReadableStream<Uint8Array>({
              start(controller) {
                for (let at = 0; at < bytes.length; at += 1 << 20) controller.enqueue(bytes.subarray(at, at + (1 << 20)))
                controller.close()
              }
            })
            const response = await fetch(`${url}/api/templates`, {
              method: "POST",
              headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
              body,
              duplex: "half"
            } as RequestInit)
            return { status: response.status, body: await response.json() as { message: string } }
          })
        const big = yield* chunked(JSON.stringify({ name: "big", html: "x".repeat(11 * 1024 * 1024) }))
        expect(big.status).toBe(413)
        expect(Object.keys(big.body)).toEqual(["message"])
        expect(yield* templateCount).toBe(before)
        const small = yield* chunked(JSON.stringify({ name: unique("chunked "), html: "<p>x</p>" }))
        expect(small.status).toBe(201)
      }))

    it.effect("template and campaign HTML hold at most 1,000,000 characters (422), so a page of 100 stays small", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const { list } = yield* listWithSubscriber
        const big = "x".repeat(1_000_001)
        expectValidation(yield* call("POST", "/api/templates", { body: { name: "big", html: big } }), ["html"])
        expectValidation(yield* call("POST", "/api/campaigns", { body: { name: "big", email_list_uuid: list, html: big } }), ["html"])
        expectValidation(yield* call("POST", "/api/campaigns", {
          body: { name: "big", email_list_uuid: list, fields: { a: big.slice(1), b: "yy" } }
        }), ["fields"])
        expectStatus(yield* call("POST", "/api/templates", { body: { name: unique("max "), html: big.slice(1) } }), 201)
      }))

    it.effect("unusable forwarding headers are ignored: page links fall back to the Host", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        for (const headers of [{ "x-forwarded-host": "[" }, { "x-forwarded-proto": "1 bad" }, { "x-forwarded-host": "a/b?c" }]) {
          const r = yield* call("GET", "/api/templates?per_page=1", { headers })
          expectStatus(r, 200)
          expect(r.body.links.first).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/templates\?/)
        }
        const proxied = yield* call("GET", "/api/templates?per_page=1", {
          headers: { "x-forwarded-host": "mail.example.org", "x-forwarded-proto": "https" }
        })
        expect(proxied.body.links.first).toMatch(/^https:\/\/mail\.example\.org\/api\/templates\?/)
      }))
  })
})
