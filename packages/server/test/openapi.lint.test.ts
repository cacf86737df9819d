import { execFile } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, layer } from "@effect/vitest"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Effect } from "effect"
import { expectStatus } from "./expectations.js"
import { TestServer, TestServerLive } from "./TestServer.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const cli = join(root, "node_modules/@redocly/cli/bin/cli.js")

/** What `redocly lint --format=json` reports. */
interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number }
  readonly problems: ReadonlyArray<{ readonly ruleId: string; readonly severity: string; readonly message: string }>
}

/** Runs `redocly lint` (recommended rules, /redocly.yaml) on a document file, offline; its JSON report. */
const redoclyLint = (file: string) =>
  Effect.async<LintReport>((resume) => {
    execFile(
      process.execPath,
      [cli, "lint", file, "--config", join(root, "redocly.yaml"), "--format=json", "--max-problems=1000"],
      { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }, maxBuffer: 64 * 1024 * 1024 },
      (_error, stdout) => resume(Effect.sync(() => JSON.parse(stdout) as LintReport))
    )
  })

type Operation = {
  operationId: string
  summary?: string
  requestBody?: unknown
  security?: Array<unknown>
  responses: Record<string, any>
}

describe("the OpenAPI document is a contract third-party tools accept", () => {
  layer(TestServerLive("sqlite"), { excludeTestServices: true })((it) => {
    const served = Effect.flatMap(TestServer, ({ call }) => call("GET", "/api/openapi.json", { token: null })).pipe(
      Effect.tap((r) => expectStatus(r, 200)),
      Effect.map((r) => r.body as { paths: Record<string, Record<string, Operation>>; [key: string]: any })
    )
    const operations = (document: { paths: Record<string, Record<string, Operation>> }) =>
      Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })))

    it.effect("Redocly's recommended rules find no error", () =>
      Effect.gen(function*() {
        const file = join(mkdtempSync(join(tmpdir(), "mailroom-openapi-")), "openapi.json")
        writeFileSync(file, JSON.stringify(yield* served))
        const report = yield* redoclyLint(file)
        const errors = report.problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId}: ${p.message}`)
        expect(errors).toEqual([])
        expect(report.totals.errors).toBe(0)
        expect(report.totals.warnings).toBeLessThanOrEqual(2)
      }), 60_000)

    it.effect("a strict OpenAPI 3.1 validator (the official schema) finds it valid", () =>
      Effect.gen(function*() {
        const document = yield* served
        const validator = new Validator()
        const result = yield* Effect.promise(() => validator.validate(structuredClone(document)))
        expect(result.errors ?? []).toEqual([])
        expect(result.valid).toBe(true)
        expect(validator.version).toBe("3.1")
      }), 60_000)

    it.effect("every operation has a summary; info has a license; servers are declared", () =>
      Effect.gen(function*() {
        const document = yield* served
        expect(operations(document).filter(({ op }) => !op.summary).map(({ op }) => op.operationId)).toEqual([])
        expect(document.info.license.name).toBe("MIT")
        expect(document.servers.length).toBeGreaterThan(0)
      }))

    it.effect("every /api operation declares 401, 403 and 429, and 413 and 415 where it reads a body", () =>
      Effect.gen(function*() {
        const missing: Array<string> = []
        for (const { path, method, op } of operations(yield* served)) {
          const wanted = [
            ...(path.startsWith("/api/") ? ["401", "403", "429", "422"] : []),
            ...(op.requestBody !== undefined ? ["413", "415"] : [])
          ]
          for (const status of wanted) if (op.responses[status] === undefined) missing.push(`${method} ${path} ${status}`)
        }
        expect(missing).toEqual([])
      }))

    it.effect("lists declare 400 for an unknown sort or filter key; no operation keeps the unused decode-error 400", () =>
      Effect.gen(function*() {
        const document = yield* served
        expect(document.paths["/api/campaigns"]!["get"]!.responses["400"].content["application/json"].schema)
          .toEqual({ $ref: "#/components/schemas/InvalidQueryError" })
        expect(JSON.stringify(document)).not.toContain("HttpApiDecodeError")
      }))

    it.effect("the campaign body is typed (no free-form record) and refuses unknown keys", () =>
      Effect.gen(function*() {
        const document = yield* served
        for (const method of ["post", "put"]) {
          const path = method === "post" ? "/api/campaigns" : "/api/campaigns/{campaign}"
          const body = document.paths[path]![method]!.requestBody as any
          const schema = body.content["application/json"].schema
          expect(schema.additionalProperties).toBe(false)
          expect(schema.required).toEqual(["name", "email_list_uuid"])
          for (const key of ["name", "email_list_uuid", "email_list_id", "subject", "html", "schedule_at", "track_opens", "fields"]) {
            expect(Object.keys(schema.properties)).toContain(key)
          }
          expect(body.content["application/json"].example.name).toBe("December newsletter")
        }
      }))

    it.effect("public mail links: the pixel is image/gif, a click is a 302 with Location, pages are text/html", () =>
      Effect.gen(function*() {
        const { paths } = yield* served
        expect(Object.keys(paths["/t/o/{send}/{signature}"]!["get"]!.responses["200"].content)).toEqual(["image/gif"])
        const click = paths["/t/c/{send}/{link}/{signature}"]!["get"]!.responses
        expect(Object.keys(click).sort()).toEqual(["302", "404"])
        expect(click["302"].headers.Location.schema).toEqual({ type: "string", format: "uri" })
        expect(Object.keys(paths["/u/{send}/{signature}"]!["get"]!.responses["200"].content)).toEqual(["text/html"])
        expect(Object.keys(paths["/u/{send}/{signature}"]!["post"]!.responses).sort()).toEqual(["200", "303", "404"])
        expect(paths["/t/o/{send}/{signature}"]!["get"]!.security).toEqual([])
      }))
  })
})
