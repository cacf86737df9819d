import { escapeHtml } from "@mailroom/core"
import { htmlPage } from "./handlers/htmlPage.js"

/** The page at `/`: what this server is, where its API documentation and health checks are, how to get a token. */
export const landingPage = (version: string) =>
  htmlPage(
    "Mailroom",
    `<p>Mailroom ${escapeHtml(version)}: a self-hosted email-campaign service. Its JSON API lives under <code>/api</code>.</p>` +
      `<ul>` +
      `<li><a href="/admin/">Web admin</a> (sign in with an API token)</li>` +
      `<li><a href="/docs">API documentation</a> (interactive)</li>` +
      `<li><a href="/api/openapi.json">OpenAPI document</a></li>` +
      `<li><a href="/healthz">/healthz</a> (the process is up) and <a href="/readyz">/readyz</a> (ready for work)</li>` +
      `<li><code>/metrics</code>: Prometheus metrics (needs a token)</li>` +
      `</ul>` +
      `<p>Every <code>/api</code> request needs <code>Authorization: Bearer &lt;token&gt;</code>. Create a token with</p>` +
      `<pre>npm run mailroom -- token:create --name me</pre>`
  )
