/** How the SQL stores cut a large uploaded CSV text: at line breaks, and never between the halves of a surrogate pair. */
import { describe, expect, it } from "@effect/vitest"
import { csvPieces } from "@mailroom/sql"

describe("csvPieces", () => {
  it("keeps a text of up to 1,000,000 characters whole, and cuts longer ones after a line break", () => {
    expect(csvPieces("")).toEqual([""])
    expect(csvPieces("a".repeat(1_000_000))).toEqual(["a".repeat(1_000_000)])
    const line = `${"x".repeat(99)}\n`
    const pieces = csvPieces(line.repeat(25_000))
    expect(pieces.join("")).toBe(line.repeat(25_000))
    expect(pieces.map((p) => p.length)).toEqual([1_000_000, 1_000_000, 500_000])
    for (const piece of pieces) expect(piece.endsWith("\n")).toBe(true)
  })

  it("cuts a text without line breaks at the limit, moving the cut before a pair that straddles it", () => {
    const text = `${"a".repeat(999_999)}😀${"b".repeat(10)}`
    const pieces = csvPieces(text)
    expect(pieces.join("")).toBe(text)
    expect(pieces[0]).toBe("a".repeat(999_999))
    expect(pieces[1]).toBe(`😀${"b".repeat(10)}`)
  })
})
