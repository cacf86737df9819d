import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { isolated } from "../src/isolated.js"

class Needed extends Context.Tag("test/Needed")<Needed, string>() {}
class Unrelated extends Context.Tag("test/Unrelated")<Unrelated, string>() {}
class Optional extends Context.Tag("test/Optional")<Optional, string>() {}
class Seen extends Context.Tag("test/Seen")<Seen, { readonly keys: ReadonlyArray<string> }>() {}
class Shared extends Context.Tag("test/Shared")<Shared, { readonly instance: number }>() {}

let builds = 0
const SharedLive = Layer.sync(Shared, () => ({ instance: ++builds }))

/** A layer that records the services its build (and so every fiber it starts) can see. */
const Recorder = Layer.effect(
  Seen,
  Effect.gen(function*() {
    yield* Needed
    yield* Shared
    const context = yield* Effect.context<never>()
    return { keys: [...context.unsafeMap.keys()].filter((key) => key.startsWith("test/")).sort() }
  })
).pipe(Layer.provide(SharedLive))

describe("isolated", () => {
  it.effect("builds a layer seeing only the services it keeps, optional ones when present, with layers shared once", () =>
    Effect.gen(function*() {
      builds = 0
      const surroundings = Layer.mergeAll(
        Layer.succeed(Needed, "needed"),
        Layer.succeed(Unrelated, "unrelated"),
        SharedLive
      )
      const both = Layer.merge(isolated(Recorder, [Needed, Optional]), Layer.effect(Unrelated, Effect.map(Shared, () => "again")))
      const context = yield* Layer.build(both.pipe(Layer.provide(surroundings)))
      expect(Context.get(context, Seen).keys).toEqual(["test/Needed", "test/Shared"])
      expect(builds).toBe(1)
      expect(Option.isNone(Context.getOption(context, Needed))).toBe(true)
    }).pipe(Effect.scoped))
})
