import { Tokens } from "@mailroom/core"
import { Effect, Layer, Option, Redacted } from "effect"

/** Makes sure the API_TOKEN (when set) exists as an all-abilities token before the server answers requests. */
export const SeedToken = (apiToken: Option.Option<Redacted.Redacted>): Layer.Layer<never, never, Tokens> =>
  Layer.effectDiscard(
    Option.match(apiToken, {
      onNone: () => Effect.void,
      onSome: (secret) =>
        Effect.flatMap(Tokens, (tokens) => tokens.ensure(Redacted.value(secret), "API_TOKEN")).pipe(
          Effect.orDie,
          Effect.zipRight(Effect.logInfo("API_TOKEN is active"))
        )
    })
  )
