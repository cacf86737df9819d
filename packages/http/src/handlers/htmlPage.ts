import { HttpServerResponse } from "@effect/platform"
import { escapeHtml } from "@mailroom/core"
import { PAGE_POLICY } from "../securityHeaders.js"

/** A small, self-contained HTML page (confirmation, unsubscribe). `body` is trusted HTML. */
export const htmlPage = (title: string, body: string, status = 200) =>
  HttpServerResponse.text(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
      `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head>` +
      `<body style="font-family:sans-serif;max-width:32rem;margin:4rem auto">` +
      `<h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    { status, contentType: "text/html; charset=utf-8", headers: { "content-security-policy": PAGE_POLICY } }
  )
