/**
 * An OpenAPI-driven fuzzer: every operation of `/api/openapi.json`, with real and hostile path ids, wrong-typed,
 * oversized, deeply nested and unicode-broken bodies, junk queries, odd content types and forwarding headers, on
 * both stores. Any 5xx fails the test with the requests that caused it. Seeded, so a failure can be replayed.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectStatus, unique } from "./expectations.js"
import { stores, TestServer, TestServerLive, TOKEN } from "./TestServer.js"

interface Operation {
  readonly method: string
  readonly path: string
  readonly params: ReadonlyArray<{ readonly name: string; readonly in: string }>
  readonly body: Record<string, unknown> | null
}

interface Probe {
  readonly method: string
  readonly url: string
  readonly body?: string
  readonly headers?: Record<string, string>
}

/** A small seeded PRNG (mulberry32), so every run sends the same requests. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth)
const HOSTILE_IDS = [
  "x", "0", "-1", "2147483648", "9".repeat(40), "1e309", "%00", "..%2F..%2Fetc", "%F0%9F%98%80", "%ED%A0%80", "%E2%80%AE",
  "00000000-0000-4000-8000-000000000000", "a@b.co", "1.2", "%20", "null", "[", "1.AAAAAAAAAAAAAAAA"
]
const WRONG_VALUES: ReadonlyArray<unknown> = [
  123, -1, 2147483648, 1e308, "x", "", true, null, [], {}, ["a", 1, null], { nested: { deeper: [1, { x: "y" }] } },
  "a".repeat(70_000), "\u0000", "\u202e\u0301", "😀".repeat(1_000), "<script>alert(1)</script>", "{{ 7 | times: 7 }}", "{% if %}",
  "::subscriber.email::", "javascript:alert(1)", "1970-01-01 00:00:00", "9999-99-99 99:99:99", Array.from({ length: 1_000 }, (_, i) => `t${i}`)
]
const RAW_BODIES = [
  "", "{", "null", "[]", "\"text\"", "1e309", deep(40), deep(5_000), `{"a":${deep(33)}}`, "{\"name\":\"\\ud800\"}",
  "{\"\\udfff\":1}", "{\"name\":\"x\",\"name\":\"y\"}", `{${Array.from({ length: 2_000 }, (_, i) => `"k${i}":${i}`).join(",")}}`,
  `[${Array.from({ length: 5_000 }, () => "\"tag\"").join(",")}]`
]
const CONTENT_TYPES = ["text/plain", "multipart/form-data", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "application/xml", "application/json; charset=latin1"]
const QUERIES = [
  "page=-1", "page=0", "page=1e9", "page=x", "per_page=1000000", "per_page=-5", "sort=nope", "sort=-", "sort=,,,", "sort[]=name",
  "filter[nope]=1", "filter=1", "filter[search]=%00", "filter[search]=%ED%A0%80", "filter[search][x]=1", "include=everything",
  "filter[email_list_id]=2147483648", "filter[status]=%F0%9F%98%80", "strict=maybe", `filter[search]=${"a".repeat(5_000)}`
]
const FORWARDED = [{ "x-forwarded-host": "[" }, { "x-forwarded-proto": "1 bad" }, { "x-forwarded-host": "a b" }, { "x-forwarded-host": "%" }]

/** The operations of the OpenAPI document, with their body schema's properties (refs resolved). */
const operationsOf = (spec: any): Array<Operation> => {
  const resolve = (schema: any): any => {
    if (schema?.$ref) return resolve(spec.components.schemas[schema.$ref.split("/").at(-1)])
    if (schema?.anyOf) return resolve(schema.anyOf.find((s: any) => s.type !== "null") ?? schema.anyOf[0])
    return schema
  }
  const operations: Array<Operation> = []
  for (const [path, methods] of Object.entries<any>(spec.paths)) {
    for (const [method, operation] of Object.entries<any>(methods)) {
      const schema = resolve(operation.requestBody?.content?.["application/json"]?.schema)
      operations.push({ method: method.toUpperCase(), path, params: operation.parameters ?? [], body: schema?.properties ?? null })
    }
  }
  // deletes last, so the other operations still find the fixtures
  return operations.sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"))
}

/** The probes of one operation: real and hostile ids, bodies, queries, content types and forwarding headers. */
const probesOf = (operation: Operation, ids: Record<string, string>, next: () => number): Array<Probe> => {
  const pick = <A>(values: ReadonlyArray<A>) => values[Math.floor(next() * values.length)]!
  const fill = (hostile: boolean) =>
    operation.path.replace(/\{(\w+)\}/g, (_, name: string) => (hostile || ids[name] === undefined ? pick(HOSTILE_IDS) : ids[name]!))
  const probes: Array<Probe> = []
  const real = fill(false)
  for (let i = 0; i < 4; i++) probes.push({ method: operation.method, url: fill(true) })
  for (let i = 0; i < 3; i++) probes.push({ method: operation.method, url: `${real}?${pick(QUERIES)}&${pick(QUERIES)}` })
  probes.push({ method: operation.method, url: real, headers: pick(FORWARDED) })
  if (operation.method !== "GET") {
    for (let i = 0; i < 4; i++) probes.push({ method: operation.method, url: real, body: pick(RAW_BODIES) })
    probes.push({ method: operation.method, url: real, body: "{\"name\":\"x\"}", headers: { "content-type": pick(CONTENT_TYPES) } })
    const fields = Object.keys(operation.body ?? {})
    for (let i = 0; i < (fields.length === 0 ? 2 : 10); i++) {
      const body: Record<string, unknown> = {}
      for (const field of fields) if (next() < 0.5) body[field] = pick(WRONG_VALUES)
      if (fields.length === 0 || next() < 0.2) body[`extra_${i}`] = pick(WRONG_VALUES)
      probes.push({ method: operation.method, url: real, body: JSON.stringify(body) })
    }
  }
  return probes
}

describe.each(stores)("fuzzing every operation on %s", (store) => {
  layer(TestServerLive(store), { excludeTestServices: true })((it) => {
    it.effect("no request of ~1,500 answers 5xx", () =>
      Effect.gen(function*() {
        const { call, url } = yield* TestServer
        const created = (r: { status: number; body: any }) => {
          expect([200, 201]).toContain(r.status)
          return r.body.data
        }
        const list = created(yield* call("POST", "/api/email-lists", { body: { name: unique("Fuzz "), default_from_email: "f@example.com" } }))
        const subscriber = created(yield* call("POST", `/api/email-lists/${list.uuid}/subscribers`, { body: { email: `${unique("f")}@example.com` } }))
        const tag = created(yield* call("POST", `/api/email-lists/${list.uuid}/tags`, { body: { name: unique("tag ") } }))
        const segment = created(yield* call("POST", `/api/email-lists/${list.uuid}/segments`, { body: { name: unique("seg ") } }))
        const template = created(yield* call("POST", "/api/templates", { body: { name: unique("tpl "), html: "<p>[[[content]]]</p>" } }))
        const campaign = created(yield* call("POST", "/api/campaigns", { body: { name: unique("c "), email_list_uuid: list.uuid, html: "<a href=\"https://example.com\">x</a>" } }))
        const suppression = created(yield* call("POST", "/api/suppressions", { body: { email: `${unique("s")}@example.com` } }))
        const imported = created(yield* call("POST", "/api/subscriber-imports", {
          body: { subscribers_csv: "email\na@example.com\n", email_list_id: list.id, subscribe_unsubscribed: false, unsubscribe_others: false }
        }))
        const ids: Record<string, string> = {
          emailList: list.uuid, subscriber: subscriber.uuid, tag: tag.uuid, segment: segment.uuid, template: template.uuid,
          campaign: campaign.uuid, suppression: suppression.uuid, import: String(imported.id)
        }
        const spec = yield* call("GET", "/api/openapi.json")
        expectStatus(spec, 200)
        const operations = operationsOf(spec.body)
        expect(operations.length).toBeGreaterThan(70)
        const next = random(20261125)
        const probes = operations.flatMap((operation) => probesOf(operation, ids, next))
        const failures: Array<string> = []
        yield* Effect.forEach(probes, (probe) =>
          Effect.promise(async () => {
            const described = () => `${probe.method} ${probe.url.slice(0, 200)} ${JSON.stringify(probe.headers ?? {})} ${(probe.body ?? "").slice(0, 200)}`
            try {
              const response = await fetch(`${url}${probe.url}`, {
                method: probe.method,
                redirect: "manual",
                signal: AbortSignal.timeout(10_000),
                headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...probe.headers },
                ...(probe.body === undefined ? {} : { body: probe.body })
              })
              await response.arrayBuffer()
              if (response.status >= 500) failures.push(`${response.status} ${described()}`)
            } catch (error) {
              failures.push(`${(error as Error).name} ${described()}`)
            }
          }), { concurrency: 8, discard: true })
        expect(probes.length).toBeGreaterThan(1_000)
        expect(failures, failures.join("\n")).toEqual([])
      }), 240_000)
  })
})
