import { describe, expect, it } from "@effect/vitest"
import { formatAddress, parseAddress, parseAddressList, trackHtml } from "@mailroom/core"

describe("address lists of transactional mails", () => {
  it("reads bare, named and quoted addresses, commas inside quotes included", () => {
    expect(parseAddressList(`jane@example.com, "Doe, Jane" <jane.doe@example.com>,Bob Smith <bob@example.org> , `)).toEqual({
      addresses: [
        { email: "jane@example.com", name: null },
        { email: "jane.doe@example.com", name: "Doe, Jane" },
        { email: "bob@example.org", name: "Bob Smith" }
      ],
      invalid: []
    })
    expect(parseAddress(`"Say \\"hi\\"" <a@b.co>`)).toEqual({ email: "a@b.co", name: "Say \"hi\"" })
    expect(parseAddress("<a@b.co>")).toEqual({ email: "a@b.co", name: null })
  })

  it("names every item that is not a valid address (no TLD, no @, stray quotes, line breaks)", () => {
    expect(parseAddressList("x@gmail, ok@example.com, nope, a@b.co\r\nBcc: c@d.co, Jo\"e <j@example.com>").invalid).toEqual([
      "x@gmail",
      "nope",
      "a@b.co\r\nBcc: c@d.co",
      "Jo\"e <j@example.com>"
    ])
    expect(parseAddressList("").addresses).toEqual([])
  })

  it("formats addresses back, quoting names that need it", () => {
    expect(formatAddress({ email: "a@b.co", name: null })).toBe("a@b.co")
    expect(formatAddress({ email: "a@b.co", name: "Ann Lee" })).toBe("Ann Lee <a@b.co>")
    expect(formatAddress({ email: "a@b.co", name: "Lee, Ann" })).toBe("\"Lee, Ann\" <a@b.co>")
  })
})

describe("tracking a finished html", () => {
  const html = `<html><body><a href="https://example.com/a?x=1&amp;y=2">A</a> <a href="mailto:x@y.z">m</a>` +
    `<a href = "https://example.com/a?x=1&y=2">again</a><a href="http://other.example/">B</a></body></html>`

  it("rewrites each http(s) link to its click URL by the link as written (&amp; decoded) and adds the pixel before </body>", () => {
    const ids = new Map([["https://example.com/a?x=1&y=2", 0], ["http://other.example/", 1]])
    const tracked = trackHtml(html, {
      pixelUrl: "https://t.example/o?a=1&b=2",
      clickUrl: (url) => (ids.has(url) ? `https://t.example/c/${ids.get(url)}?s=1&k=2` : null)
    })
    expect(tracked).toBe(
      `<html><body><a href="https://t.example/c/0?s=1&amp;k=2">A</a> <a href="mailto:x@y.z">m</a>` +
        `<a href="https://t.example/c/0?s=1&amp;k=2">again</a><a href="https://t.example/c/1?s=1&amp;k=2">B</a>` +
        `<img src="https://t.example/o?a=1&amp;b=2" width="1" height="1" alt="" style="display:none"></body></html>`
    )
  })

  it("leaves what is switched off alone, and appends the pixel to html without a body", () => {
    expect(trackHtml(html, { pixelUrl: null, clickUrl: null })).toBe(html)
    expect(trackHtml("<p>hi</p>", { pixelUrl: "https://t.example/o", clickUrl: null })).toBe(
      `<p>hi</p><img src="https://t.example/o" width="1" height="1" alt="" style="display:none">`
    )
  })
})
