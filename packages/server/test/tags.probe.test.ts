import { describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { unique } from "./expectations.js"
import { stores, TestServer, TestServerLive } from "./TestServer.js"

describe.each(stores)("probe %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    it.effect("probe", () =>
      Effect.gen(function*() {
        const { call } = yield* TestServer
        const log = (label: string, r: { status: number; text: string }) => console.log(`[${store}] ${label}: ${r.status} ${r.text.slice(0, 400)}`)
        const mk = () => call("POST", "/api/email-lists", { body: { name: unique("P "), default_from_email: "a@example.com" } }).pipe(Effect.map((r) => r.body.data.uuid as string))
        const list = yield* mk()
        const other = yield* mk()
        const T = `/api/email-lists/${list}/tags`
        const S = `/api/email-lists/${list}/segments`
        log("padded", yield* call("POST", T, { body: { name: "  Padded  " } }))
        log("spaces", yield* call("POST", T, { body: { name: "   " } }))
        log("long256", yield* call("POST", T, { body: { name: "x".repeat(256) } }))
        log("long255", yield* call("POST", T, { body: { name: "y".repeat(255) } }))
        log("vip=1", yield* call("POST", T, { body: { name: "one", visible_in_preferences: 1 } }))
        log("malformed", yield* call("POST", T, { body: "{oops" }))
        log("Ärger", yield* call("POST", T, { body: { name: "Ärger" } }))
        log("ärger", yield* call("POST", T, { body: { name: "ärger" } }))
        log("ÄRGER sub", yield* call("POST", `/api/email-lists/${list}/subscribers`, { body: { email: "u@example.com", tags: ["ÄRGER", " padded "] } }))
        log("tags list", yield* call("GET", `${T}?per_page=100`))
        log("search %", yield* call("GET", `${T}?filter[search]=%25`))
        log("search _", yield* call("GET", `${T}?filter[search]=_`))
        log("search ärg", yield* call("GET", `${T}?filter[search]=${encodeURIComponent("ÄRG")}`))
        log("include both", yield* call("GET", `${T}?include=emailList,foo`))
        log("sort multi bad", yield* call("GET", `${T}?sort=name,bogus`))
        log("type arr", yield* call("GET", `${T}?filter[type]=default,mailcoach`))
        const races = yield* Effect.all(Array.from({ length: 8 }, (_, i) => call("POST", T, { body: { name: i % 2 ? "RACE" : "race" } })), { concurrency: "unbounded" })
        console.log(`[${store}] race statuses`, races.map((r) => r.status).join(","), new Set(races.map((r) => r.body?.data?.uuid)).size, races.find((r) => r.status >= 300)?.text)
        const races2 = yield* Effect.all(Array.from({ length: 6 }, (_, i) => call("POST", `/api/email-lists/${list}/subscribers`, { body: { email: `r${i}@example.com`, tags: ["subrace"] } })), { concurrency: "unbounded" })
        console.log(`[${store}] subrace statuses`, races2.map((r) => r.status).join(","), races2.find((r) => r.status >= 300)?.text)
        log("subrace tags", yield* call("GET", `${T}?filter[search]=subrace`))
        // segments
        yield* call("POST", T, { body: { name: "a" } })
        log("seg dup tags", yield* call("POST", S, { body: { name: "d", positive_tags: ["a", "A"] } }))
        log("seg num tag", yield* call("POST", S, { body: { name: "d", positive_tags: [5] } }))
        log("seg empty tag", yield* call("POST", S, { body: { name: "d", positive_tags: [""] } }))
        log("seg spaces name", yield* call("POST", S, { body: { name: "   " } }))
        log("seg long name", yield* call("POST", S, { body: { name: "z".repeat(256) } }))
        log("seg padded tag", yield* call("POST", S, { body: { name: "d", positive_tags: [" a "] } }))
        log("seg malformed", yield* call("POST", S, { body: "{oops" }))
        const foreignSeg = (yield* call("POST", `/api/email-lists/${other}/segments`, { body: { name: "f" } })).body.data.uuid
        log("foreign seg filter", yield* call("GET", `/api/email-lists/${list}/subscribers?filter[segment_uuid]=${foreignSeg}`))
        log("garbage seg filter", yield* call("GET", `/api/email-lists/${list}/subscribers?filter[segment_uuid]=abc`))
        log("seg include single", yield* call("GET", `${S}?include=emailList&sort=-created_at`))
        log("tag single include", yield* call("GET", `${T}/${(yield* call("GET", T)).body.data[0].uuid}?include=emailList`))
        log("delete list", yield* call("DELETE", `/api/email-lists/${list}`))
        log("tags after list delete", yield* call("GET", T))
      }))
  })
})
