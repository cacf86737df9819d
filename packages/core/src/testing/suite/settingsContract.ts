import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { RateBudget } from "../../ports/RateBudget.js"
import { SettingsRepository } from "../../ports/SettingsRepository.js"
import { at, type MakeStorage } from "./fixtures.js"

/** An instant `ms` milliseconds into the second `at(seconds)`. */
const into = (seconds: number, ms: number) => new Date(at(seconds).getTime() + ms)

/** SettingsRepository and RateBudget conformance: installation-wide values and the shared per-second budget. */
export const settingsContract = (makeStorage: MakeStorage) =>
  describe("SettingsRepository and RateBudget", () => {
    const run = <A, E>(effect: Effect.Effect<A, E, SettingsRepository | RateBudget>) => Effect.provide(effect, makeStorage())

    it.effect("stores a setting's first value and keeps it whatever later callers offer", () =>
      run(Effect.gen(function*() {
        const settings = yield* SettingsRepository
        expect(yield* settings.getOrInit("signing-key", "first")).toBe("first")
        expect(yield* settings.getOrInit("signing-key", "second")).toBe("first")
        expect(yield* settings.getOrInit("other-key", "Grüße 👋")).toBe("Grüße 👋")
        expect(yield* settings.getOrInit("signing-key", "third")).toBe("first")
        const racing = yield* Effect.all(
          ["a", "b", "c", "d"].map((value) => settings.getOrInit("raced", value)),
          { concurrency: "unbounded" }
        )
        expect(new Set(racing).size).toBe(1)
        expect(yield* settings.getOrInit("raced", "e")).toBe(racing[0])
      })))

    it.effect("grants at most the limit per second and key, starting afresh each second", () =>
      run(Effect.gen(function*() {
        const budget = yield* RateBudget
        expect(yield* budget.take("mailer", 3, 5, into(0, 0))).toBe(3)
        expect(yield* budget.take("mailer", 3, 5, into(0, 400))).toBe(2)
        expect(yield* budget.take("mailer", 1, 5, into(0, 999))).toBe(0)
        expect(yield* budget.take("other", 10, 4, into(0, 500))).toBe(4)
        expect(yield* budget.take("mailer", 0, 5, into(1, 0))).toBe(0)
        expect(yield* budget.take("mailer", 10, 5, into(1, 1))).toBe(5)
        expect(yield* budget.take("mailer", 1, 5, into(1, 999))).toBe(0)
        expect(yield* budget.take("mailer", 2, 5, into(7, 0))).toBe(2)
        expect(yield* budget.take("other", 1, 4, into(7, 0))).toBe(1)
      })))
  })
