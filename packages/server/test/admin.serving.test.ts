import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ServeProcess, startServe } from "./processes.js"

/** The web admin as the server that users start serves it: /admin, its files, deep links and caching. */
describe("the web admin under /admin", () => {
  let server: ServeProcess
  let folder: string

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "mailroom-admin-serving-"))
    server = await startServe("admin-serving", { API_TOKEN: "t", DATABASE_URL: `sqlite:${join(folder, "db.sqlite")}`, LOG_REQUESTS: "false" }, folder)
  })

  afterAll(async () => {
    await server?.process.kill("SIGTERM")
    rmSync(folder, { recursive: true, force: true })
  })

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { redirect: "manual", headers })

  it("sends /admin to /admin/ and answers its page with a policy that allows only its own scripts", async () => {
    const redirect = await get("/admin")
    expect(redirect.status).toBe(302)
    expect(redirect.headers.get("location")).toBe("/admin/")
    const page = await get("/admin/")
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toMatch(/^text\/html/)
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'self';/)
    expect(page.headers.get("x-frame-options")).toBe("DENY")
    expect(page.headers.get("cache-control")).toBe("no-cache")
    const html = await page.text()
    expect(html).toMatch(/<script type="module" crossorigin src="\/admin\/assets\/index-[\w-]+\.js"><\/script>/)
    expect(html).not.toMatch(/https?:\/\//)
  })

  it("answers the page for every app path, so a reloaded or bookmarked admin URL works", async () => {
    const page = await get("/admin/campaigns/0191e0c4-0000-7000-8000-000000000000/edit")
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<div id="app">')
  })

  it("serves its hashed files gzipped, cached for a year, and answers 304 to a matching ETag", async () => {
    const html = await (await get("/admin/")).text()
    const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)![1]!
    const plain = await get(script, { "accept-encoding": "identity" })
    expect(plain.status).toBe(200)
    expect(plain.headers.get("content-type")).toMatch(/^text\/javascript/)
    expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    const body = await plain.arrayBuffer()
    const packed = await fetch(`${server.url}${script}`, { headers: { "accept-encoding": "gzip" } })
    expect(packed.headers.get("content-encoding")).toBe("gzip")
    expect((await packed.arrayBuffer()).byteLength).toBe(body.byteLength)
    const again = await get(script, { "if-none-match": plain.headers.get("etag")! })
    expect(again.status).toBe(304)
  })

  it("answers 404 JSON for a missing file and never 5xx for a strange path", async () => {
    const missing = await get("/admin/assets/nothing-here.js")
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ message: "Not found." })
    for (const path of ["/admin/%E0%A4%A", "/admin/..%2f..%2fpackage.json", "/admin/assets/%00.js"]) {
      const reply = await get(path)
      expect(reply.status, path).toBeLessThan(500)
      expect(await reply.text(), path).not.toContain('"name": "mailroom"')
    }
  })
})
