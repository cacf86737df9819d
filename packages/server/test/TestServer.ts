import { createServer } from "node:http"
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { type Ability, Mailroom, type Storage, Tokens } from "@mailroom/core"
import { HttpLive } from "@mailroom/http"
import { PostgresIsolatedStorage } from "@mailroom/postgres"
import { SqliteStorage } from "@mailroom/sqlite"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { SeedToken } from "../src/SeedToken.js"

/** The stores every black-box test runs against. */
export const stores = ["sqlite", "postgres"] as const
/** One of the stores. */
export type Store = (typeof stores)[number]

/** The bearer token every test request carries unless told otherwise. */
export const TOKEN = "test-token-with-all-abilities"

/** A response as a client sees it. */
export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The parsed JSON body (undefined when empty or not JSON). */
  readonly body: any
}

/** Options of one request. */
export interface CallOptions {
  /** A JSON value, or a raw string sent as is. */
  readonly body?: unknown
  /** Overrides the bearer token; null sends no Authorization header. */
  readonly token?: string | null
  readonly headers?: Record<string, string>
}

/** A running Mailroom server on an ephemeral port, and ways to talk to it. */
export class TestServer extends Context.Tag("test/TestServer")<TestServer, {
  readonly url: string
  readonly call: (method: string, path: string, options?: CallOptions) => Effect.Effect<Reply>
  readonly tokenWith: (abilities: ReadonlyArray<Ability>) => Effect.Effect<string>
}>() {}

const storage = (store: Store): Layer.Layer<Storage> =>
  store === "sqlite"
    ? SqliteStorage({ filename: ":memory:" })
    : PostgresIsolatedStorage(process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test")

/** Starts the real HTTP stack (same layers as `npm start`) on 127.0.0.1 with a fresh, empty store. */
export const TestServerLive = (store: Store): Layer.Layer<TestServer> => {
  const node = NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })
  const app = HttpLive(node, { logRequests: false }).pipe(Layer.provide(SeedToken(Option.some(Redacted.make(TOKEN)))))
  return Layer.effect(
    TestServer,
    Effect.gen(function*() {
      const server = yield* HttpServer.HttpServer
      const tokens = yield* Tokens
      const address = server.address
      const url = address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : "http://localhost"
      const call = (method: string, path: string, options: CallOptions = {}) =>
        Effect.promise(async () => {
          const headers: Record<string, string> = { accept: "application/json", ...options.headers }
          const token = options.token === undefined ? TOKEN : options.token
          if (token !== null) headers["authorization"] = `Bearer ${token}`
          let body: string | undefined
          if (options.body !== undefined) {
            headers["content-type"] ??= "application/json"
            body = typeof options.body === "string" ? options.body : JSON.stringify(options.body)
          }
          const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
          const text = await response.text()
          let json: unknown = undefined
          try {
            json = text === "" ? undefined : JSON.parse(text)
          } catch {
            json = undefined
          }
          return { status: response.status, headers: response.headers, text, body: json }
        })
      const tokenWith = (abilities: ReadonlyArray<Ability>) =>
        tokens.create(`test ${abilities.join(",")}`, abilities).pipe(Effect.map(({ secret }) => secret), Effect.orDie)
      return TestServer.of({ url, call, tokenWith })
    })
  ).pipe(
    Layer.provide(Layer.merge(app, node)),
    Layer.provideMerge(Mailroom),
    Layer.provide(storage(store)),
    Layer.orDie
  )
}
