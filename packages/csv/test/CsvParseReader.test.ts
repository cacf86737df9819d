import { describe, expect, it } from "@effect/vitest"
import { CsvParser, type CsvRow } from "@mailroom/core"
import { CsvParseReader } from "@mailroom/csv"
import { Context, Effect, Layer } from "effect"

const parser = Effect.runSync(Effect.map(Layer.build(CsvParseReader).pipe(Effect.scoped), Context.get(CsvParser)))

/** Reads `text` pushed in pieces cut at `cuts`. */
const read = (text: string, cuts: ReadonlyArray<number> = []): Array<CsvRow> => {
  const reader = parser.reader()
  const rows: Array<CsvRow> = []
  let from = 0
  for (const cut of [...cuts, text.length]) {
    rows.push(...reader.push(text.slice(from, cut)))
    from = cut
  }
  rows.push(...reader.end())
  return rows
}

const csv = "\uFEFFemail,first name,notes\r\n" +
  "ana@example.org,Ana,\"multi\nline\nnote\"\r\n" +
  "\r\n" +
  "bo@example.org,\"Bo \"\"the\"\" Builder\",plain\r\n" +
  "cy@example.org,Cy\"s,quote inside\r\n" +
  "dee@example.org,Dee\r\n" +
  "eve@example.org,Eve,a,b,c\r\n" +
  "fay@example.org,\"never closed"

describe("CsvParseReader", () => {
  it("reads records with the line each starts on, across quoted line breaks and blank lines", () => {
    const rows = read(csv)
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

  it("gives the same rows wherever the text is cut into pieces", () => {
    const whole = read(csv)
    for (let cut = 0; cut <= csv.length; cut++) expect(read(csv, [cut]), `cut at ${cut}`).toEqual(whole)
    expect(read(csv, Array.from({ length: csv.length }, (_, i) => i))).toEqual(whole)
  })

  it("keeps quotes inside unquoted fields as text, and reports a quote never closed at its line", () => {
    const rows = read("email\na@example.org\n\"x\"y,z\nb@example.org,\"open\nc@example.org\n")
    expect(rows.slice(0, 3)).toEqual([
      { _tag: "Record", line: 1, fields: ["email"] },
      { _tag: "Record", line: 2, fields: ["a@example.org"] },
      { _tag: "Record", line: 3, fields: ["\"x\"y", "z"] }
    ])
    expect(rows[3]).toMatchObject({ _tag: "Malformed", line: 4 })
    expect(rows[3]?._tag === "Malformed" && rows[3].reason).toMatch(/quote/i)
    expect(rows).toHaveLength(4)
  })

  it("takes a last line without a line break, and an empty input as no rows", () => {
    expect(read("email\na@example.org")).toEqual([
      { _tag: "Record", line: 1, fields: ["email"] },
      { _tag: "Record", line: 2, fields: ["a@example.org"] }
    ])
    expect(read("")).toEqual([])
  })
})
