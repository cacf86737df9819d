import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { AppLive, program } from "./embed-in-memory.js"

it.effect("the in-memory embedding example runs and reports what it stored", () =>
  Effect.gen(function*() {
    const report = yield* program
    expect(report).toEqual({
      list: "Newsletter <news@example.com>",
      subscriber: "ada@example.com [vip] confirmed: false",
      confirmationMails: ["ada@example.com: Confirm your subscription to Newsletter"],
      templates: ["Welcome", "Monthly digest"],
      total: 2,
      suppressed: true
    })
  }).pipe(Effect.provide(AppLive)))
