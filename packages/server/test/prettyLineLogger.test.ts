/** The pretty logger writes what Effect's pretty logger prints, one write per entry. */
import { formatWithOptions } from "node:util"
import { describe, expect, it } from "@effect/vitest"
import { Console, Effect, Logger } from "effect"
import { prettyLineLogger } from "../src/prettyLineLogger.js"

/** Effect's pretty logger's output, captured from the console it prints to (a group indents by two spaces). */
const effectsOutput = <A, E>(effect: Effect.Effect<A, E>, colors: boolean) =>
  Effect.gen(function*() {
    let text = ""
    let indent = ""
    const log = (...args: ReadonlyArray<unknown>) => {
      text += formatWithOptions({ colors }, ...args).split("\n").map((line) => indent + line).join("\n") + "\n"
    }
    const unsafe = { ...globalThis.console, log, group: () => void (indent += "  "), groupEnd: () => void (indent = indent.slice(2)) }
    // the pretty logger uses only the console's `unsafe` side
    const console = { [Console.TypeId]: Console.TypeId, unsafe } as unknown as Console.Console
    yield* effect.pipe(
      Effect.withConsole(console),
      Effect.provide(Logger.replace(Logger.defaultLogger, Logger.prettyLogger({ colors }))),
      Effect.exit
    )
    return text
  })

/** Our logger's output: the pieces it wrote. */
const ourOutput = <A, E>(effect: Effect.Effect<A, E>, colors: boolean) =>
  Effect.gen(function*() {
    const writes: Array<string> = []
    yield* effect.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, prettyLineLogger((text) => writes.push(text), colors))), Effect.exit)
    return writes
  })

const entries = [
  ["a message alone", Effect.log("Listening on http://127.0.0.1:3000")],
  ["a request line: span and annotations", Effect.log("Sent HTTP response").pipe(
    Effect.annotateLogs({ "http.method": "POST", "http.url": "/api/email-lists/…/subscribers", "http.status": 201 }),
    Effect.withLogSpan("http.span")
  )],
  ["a warning with a cause and more message parts", Effect.logWarning("Delivery failed, retrying", { attempt: 2, codes: [421, 450] }).pipe(
    Effect.annotateLogs("campaign", "01a2"),
    Effect.zipRight(Effect.logError("Stopped", new Error("boom\nsecond line")))
  )],
  ["annotations of every kind", Effect.log("Odd annotations").pipe(
    Effect.annotateLogs({ "lines": "one\ntwo", "100%s": "kept", "zero": -0, "count": 7, "object": { a: [1, "b"] }, "none": null, "empty": "" })
  )],
  ["a failure's cause", Effect.logError("Import failed").pipe(Effect.zipRight(Effect.fail("x")), Effect.catchAllCause((cause) => Effect.logError(cause)))]
] as const

describe("prettyLineLogger", () => {
  for (const colors of [false, true]) {
    for (const [name, entry] of entries) {
      it.effect(`prints ${name} as Effect's pretty logger does${colors ? ", in color" : ""}, one write an entry`, () =>
        Effect.gen(function*() {
          const theirs = yield* effectsOutput(entry, colors)
          const ours = yield* ourOutput(entry, colors)
          // fiber ids and times differ between the runs
          const stable = (text: string) => text.replace(/\d\d:\d\d:\d\d\.\d\d\d/g, "T").replace(/#\d+/g, "#F").replace(/=\d+ms/g, "=Nms")
          expect(stable(ours.join(""))).toEqual(stable(theirs))
          expect(ours.length).toBe(theirs.split("\n").filter((line) => /^\S/.test(line)).length)
        }))
    }
  }
})
