import { readdirSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { CsvParser, type CsvRow } from "@mailroom/core"
import { CsvParseReader, CsvThreadReader } from "@mailroom/csv"
import { Effect, type Layer } from "effect"

/** Reads `text` pushed in pieces cut at `cuts`, with a reader of `layer`. */
const readWith = (layer: Layer.Layer<CsvParser>) => (text: string, cuts: ReadonlyArray<number> = []): Promise<Array<CsvRow>> =>
  Effect.runPromise(Effect.gen(function*() {
    const reader = yield* (yield* CsvParser).reader
    const rows: Array<CsvRow> = []
    let from = 0
    for (const cut of [...cuts, text.length]) {
      rows.push(...yield* reader.push(text.slice(from, cut)))
      from = cut
    }
    rows.push(...yield* reader.end)
    return rows
  }).pipe(Effect.scoped, Effect.provide(layer)))

/** The threads of this process (Linux). */
const threads = () => readdirSync("/proc/self/task").length

const csv = "\uFEFFemail,first name,notes\r\n" +
  "ana@example.org,Ana,\"multi\nline\nnote\"\r\n" +
  "\r\n" +
  "bo@example.org,\"Bo \"\"the\"\" Builder\",plain\r\n" +
  "cy@example.org,Cy\"s,quote inside\r\n" +
  "dee@example.org,Dee\r\n" +
  "eve@example.org,Eve,a,b,c\r\n" +
  "fay@example.org,\"never closed"

const readers = [
  { name: "CsvParseReader", layer: CsvParseReader, step: 1 },
  // every piece through the thread (a thread per reader: the exhaustive cuts are sampled)
  { name: "CsvThreadReader", layer: CsvThreadReader({ threadFrom: 0 }), step: 9 }
]

describe.each(readers)("$name", ({ layer, step }) => {
  const read = readWith(layer)

  it("reads records with the line each starts on, across quoted line breaks and blank lines", async () => {
    const rows = await read(csv)
    expect(rows.slice(0, 6)).toEqual([
      { _tag: "Record", line: 1, fields: ["email", "first name", "notes"] },
      { _tag: "Record", line: 2, fields: ["ana@example.org", "Ana", "multi\nline\nnote"] },
      { _tag: "Record", line: 6, fields: ["bo@example.org", "Bo \"the\" Builder", "plain"] },
      { _tag: "Record", line: 7, fields: ["cy@example.org", "Cy\"s", "quote inside"] },
      { _tag: "Record", line: 8, fields: ["dee@example.org", "Dee"] },
      { _tag: "Record", line: 9, fields: ["eve@example.org", "Eve", "a", "b", "c"] }
    ])
    expect(rows[6]).toMatchObject({ _tag: "Malformed", line: 10 })
    expect(rows).toHaveLength(7)
  })

  it("gives the same rows wherever the text is cut into pieces", async () => {
    const whole = await read(csv)
    for (let cut = 0; cut <= csv.length; cut += step) expect(await read(csv, [cut]), `cut at ${cut}`).toEqual(whole)
    expect(await read(csv, Array.from({ length: csv.length }, (_, i) => i))).toEqual(whole)
  })

  it("keeps quotes inside unquoted fields as text, and reports a quote never closed at its line", async () => {
    const rows = await read("email\na@example.org\n\"x\"y,z\nb@example.org,\"open\nc@example.org\n")
    expect(rows.slice(0, 3)).toEqual([
      { _tag: "Record", line: 1, fields: ["email"] },
      { _tag: "Record", line: 2, fields: ["a@example.org"] },
      { _tag: "Record", line: 3, fields: ["\"x\"y", "z"] }
    ])
    expect(rows[3]).toMatchObject({ _tag: "Malformed", line: 4 })
    expect(rows[3]?._tag === "Malformed" && rows[3].reason).toMatch(/quote/i)
    expect(rows).toHaveLength(4)
  })

  it("takes a last line without a line break, and an empty input as no rows", async () => {
    expect(await read("email\na@example.org")).toEqual([
      { _tag: "Record", line: 1, fields: ["email"] },
      { _tag: "Record", line: 2, fields: ["a@example.org"] }
    ])
    expect(await read("")).toEqual([])
  })
})

describe("CsvThreadReader", () => {
  const big = "email,name,tags\n" + Array.from({ length: 20_000 }, (_, i) =>
    `user${i}@example.org,"Name ${i}\n(${i})","a;b"\n`).join("") + "last@example.org,\"never closed\n"

  it("parses a large text on a thread of its own, with the rows and lines of the calling thread's reader, and stops it with the reader", async () => {
    const before = threads()
    let during = 0
    const rows = await Effect.runPromise(Effect.gen(function*() {
      const reader = yield* (yield* CsvParser).reader
      const got: Array<CsvRow> = []
      for (let at = 0; at < big.length; at += 100_000) {
        got.push(...yield* reader.push(big.slice(at, at + 100_000)))
        during = Math.max(during, threads())
      }
      got.push(...yield* reader.end)
      return got
    }).pipe(Effect.scoped, Effect.provide(CsvThreadReader())))
    expect(during).toBe(before + 1)
    expect(threads()).toBe(before)
    expect(rows).toEqual(await readWith(CsvParseReader)(big, [100_000, 200_000, 300_000, 400_000, 500_000, 600_000, 700_000, 800_000]))
    expect(rows).toHaveLength(20_002)
    expect(rows[20_000]).toEqual({ _tag: "Record", line: 40_000, fields: ["user19999@example.org", "Name 19999\n(19999)", "a;b"] })
    expect(rows[20_001]).toMatchObject({ _tag: "Malformed", line: 40_002 })
  })

  it("reads a text whose first piece is small in the calling thread", async () => {
    const before = threads()
    const rows = await readWith(CsvThreadReader())("email\na@example.org\n")
    expect(rows).toHaveLength(2)
    expect(threads()).toBe(before)
  })
})
