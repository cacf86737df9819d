import { describe, expect, it } from "@effect/vitest"
import { redactUrl } from "@mailroom/http"

describe("redactUrl", () => {
  it("hides the signature of every public mail link, keeping what the link is", () => {
    expect(redactUrl("/t/o/5e4d0000-0000-4000-8000-000000000009/AbCdEfGhIjKlMnOp")).toBe("/t/o/5e4d0000-0000-4000-8000-000000000009/…")
    expect(redactUrl("/t/c/5e4d/42.AbCdEfGhIjKlMnOp/QrStUvWxYz012345")).toBe("/t/c/5e4d/42.AbCdEfGhIjKlMnOp/…")
    expect(redactUrl("/u/5e4d/AbCdEfGhIjKlMnOp")).toBe("/u/5e4d/…")
    expect(redactUrl("/confirm/a0b1/AbCdEfGhIjKlMnOp")).toBe("/confirm/a0b1/…")
    expect(redactUrl("/webview/c0ff/5e4d/AbCdEfGhIjKlMnOp")).toBe("/webview/c0ff/5e4d/…")
    expect(redactUrl("/webview/c0ff")).toBe("/webview/c0ff")
    expect(redactUrl("/confirm/a0b1")).toBe("/confirm/a0b1")
    expect(redactUrl("/feedback/postmark/s3cret-path")).toBe("/feedback/postmark/…")
    expect(redactUrl("/feedback/postmark")).toBe("/feedback/postmark")
  })

  it("hides addresses in paths and query values, plain or percent-encoded, and leaves the rest", () => {
    expect(redactUrl("/api/suppressions/ada@example.com")).toBe("/api/suppressions/…")
    expect(redactUrl("/api/suppressions/ada%40example.com")).toBe("/api/suppressions/…")
    expect(redactUrl("/api/email-lists/x/subscribers?filter[email]=ada%40example.com&page=2&sort=-created_at"))
      .toBe("/api/email-lists/x/subscribers?filter[email]=…&page=2&sort=-created_at")
    expect(redactUrl("/api/templates?filter[search]=news&per_page=5")).toBe("/api/templates?filter[search]=news&per_page=5")
  })
})
