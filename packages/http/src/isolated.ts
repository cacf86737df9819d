import { Context, Effect, Layer } from "effect"

/** `Keep` when it names every service `R` needs; otherwise a type naming the missing ones. */
type Covering<R, Keep extends ReadonlyArray<Context.Tag<any, any>>> = [R] extends [Context.Tag.Identifier<Keep[number]>] ? Keep
  : { readonly missing: Exclude<R, Context.Tag.Identifier<Keep[number]>> }

/**
 * Builds `layer` seeing only the services named in `keep` (those present; the type checks they cover what it needs),
 * with the surrounding build's memo map, so layers it shares with the rest are built once. What it captures for every
 * request (a handler group's context, the server's runtime) then holds a few services instead of the whole
 * application's ~90: Effect copies that context a dozen or more times per request (each span, scope and provided
 * service), and a copy costs time and garbage in proportion to its size.
 */
export const isolated = <ROut, E, RIn, const Keep extends ReadonlyArray<Context.Tag<any, any>>>(
  layer: Layer.Layer<ROut, E, RIn>,
  keep: Keep & Covering<RIn, Keep>
): Layer.Layer<ROut, E, RIn> =>
  Layer.scopedContext(Effect.gen(function*() {
    const surroundings = yield* Effect.context<RIn>()
    let seen = Context.empty() as Context.Context<unknown>
    for (const tag of keep as Keep) {
      const service = Context.getOption(surroundings, tag)
      if (service._tag === "Some") seen = Context.add(seen, tag, service.value)
    }
    const built: Effect.Effect<Context.Context<ROut>, E, RIn> = Layer.buildWithMemoMap(layer, yield* Layer.CurrentMemoMap, yield* Effect.scope)
    return yield* Effect.mapInputContext(built, () => seen as Context.Context<RIn>)
  })) as Layer.Layer<ROut, E, RIn>
