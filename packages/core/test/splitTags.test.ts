/** A CSV import's tags cell: the names a row gets, as a person filling a spreadsheet writes them. */
import { describe, expect, it } from "@effect/vitest"
import { splitTags } from "@mailroom/core"

describe("splitTags", () => {
  it("splits on semicolons, commas and bars, trimming each name", () => {
    expect(splitTags("vip; Beta|gamma ,news")).toEqual(["vip", "Beta", "gamma", "news"])
    expect(splitTags(" solo ")).toEqual(["solo"])
  })

  it("gives nothing for an empty cell, and drops empty and over-long names", () => {
    expect(splitTags("")).toEqual([])
    expect(splitTags(" ; ,| ")).toEqual([])
    expect(splitTags(`a;${"x".repeat(256)};${"y".repeat(255)};;b,`)).toEqual(["a", "y".repeat(255), "b"])
  })

  it("keeps a name once, in its first spelling, whatever the case of its repeats", () => {
    expect(splitTags("new|EXISTING|new|New|existing")).toEqual(["new", "EXISTING"])
    expect(splitTags("Łódź;łÓDŹ;Zoë;ZOË")).toEqual(["Łódź", "Zoë"])
  })
})
