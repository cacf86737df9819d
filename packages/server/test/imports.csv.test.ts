/** The CSV text of a draft: kept exactly across parts, served as a stream, and refused with NUL characters. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectStatus, expectValidation } from "./expectations.js"
import { createImport, createList, IMPORT_FIELDS, importAction, importNow, postImport } from "./imports.support.js"
import { stores, TestServerLive } from "./TestServer.js"

describe.each(stores)("subscriber import CSV text on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    it.effect("a draft's CSV of many parts comes back exactly, quotes, backslashes, controls and emoji included", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        const parts = [
          "email,first_name,note\n",
          "ann@example.com,Ann,\"say \"\"hi\"\"\"\n",
          "bo@example.com,Bö,back\\slash\ttab\r\n",
          "cy@example.com,😀 李,\u2028line sep\u0001\n",
          ...Array.from({ length: 6 }, (_, i) => `p${i}@example.com,P${i},${"x".repeat(i * 1000)}\n`)
        ]
        const created = yield* createImport(list, parts[0]!)
        let last: { readonly headers: Headers; readonly body: any } | undefined
        for (const part of parts.slice(1)) {
          last = yield* importAction(created.id, "append", { subscribers_csv: part })
          expectStatus(last as never, 200)
        }
        expect(last!.headers.get("content-type")).toMatch(/^application\/json/)
        expect(last!.body.data.subscribers_csv).toBe(parts.join(""))
        const shown = yield* importNow(created.uuid)
        expect(shown.subscribers_csv).toBe(parts.join(""))
        expect(Object.keys(shown).sort()).toEqual(IMPORT_FIELDS)
      }))

    it.effect("a CSV with a NUL character is refused with 422 and changes nothing", () =>
      Effect.gen(function*() {
        const list = yield* createList()
        expectValidation(
          yield* postImport({ subscribers_csv: "email\nann@example.com\u0000\n", email_list_id: list.id, subscribe_unsubscribed: false, unsubscribe_others: false }),
          ["subscribers_csv"]
        )
        const created = yield* createImport(list, "email\n")
        expectValidation(yield* importAction(created.id, "append", { subscribers_csv: "a\u0000@example.com\n" }), ["subscribers_csv"])
        expect((yield* importNow(created.id)).subscribers_csv).toBe("email\n")
      }))
  })
})
