import { Tokens } from "@mailroom/core"
import { Effect, Option } from "effect"
import type { EnvironmentConfig } from "../ServerConfig.js"

/** The address a browser on this machine can open for a listening host (0.0.0.0 and :: listen everywhere). */
const browsable = (host: string, port: number) => {
  const name = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host
  return `http://${name}:${port}`
}

/** Says where the server answers, where its admin and docs are and, when no token exists at all, how to make one. */
export const announce = (config: EnvironmentConfig) =>
  Effect.gen(function*() {
    const base = browsable(config.host, config.port)
    yield* Effect.logInfo(`Mailroom is listening on ${base} (admin ${base}/admin, API ${base}/api, docs ${base}/docs)`)
    if (Option.isNone(config.apiToken)) {
      const tokens = yield* Effect.flatMap(Tokens, (tokens) => tokens.list()).pipe(Effect.orElseSucceed(() => [1]))
      if (tokens.length === 0) {
        yield* Effect.logWarning(
          "No API token exists yet: create one with `npm run mailroom -- token:create --name admin` (prints the secret once), or start with API_TOKEN=<secret>"
        )
      }
    }
  })
