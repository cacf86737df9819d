import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { type AdminAsset, AdminApp } from "./AdminApp.js"

/**
 * What the admin's pages may load: only its own scripts and the API on this origin. Mail previews show campaign HTML
 * in a sandboxed frame (no scripts), whose images and styles may come from anywhere, as in a mail client.
 */
export const ADMIN_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src * data:; " +
  "font-src * data:; connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; " +
  "frame-ancestors 'none'"

const NOT_BUILT = "The web admin is not built. Run `npm run build` (or `npm install`, which builds it) and restart."

/** A path with its %-escapes decoded; a malformed escape is left as it is (and matches no file). */
const safeDecode = (path: string) => {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

const serve = (asset: AdminAsset, request: HttpServerRequest.HttpServerRequest) => {
  const headers: Record<string, string> = {
    "content-security-policy": ADMIN_POLICY,
    "cache-control": asset.immutable ? "public, max-age=31536000, immutable" : "no-cache",
    etag: asset.etag,
    vary: "accept-encoding"
  }
  if (request.headers["if-none-match"] === asset.etag) return HttpServerResponse.empty({ status: 304, headers })
  const gzip = asset.gzip !== undefined && /\bgzip\b/.test(request.headers["accept-encoding"] ?? "")
  return HttpServerResponse.uint8Array(gzip ? asset.gzip! : asset.body, {
    contentType: asset.contentType,
    headers: gzip ? { ...headers, "content-encoding": "gzip" } : headers
  })
}

/**
 * The web admin under /admin: its files, and its page for every other path below /admin (the app routes in the
 * browser), so a bookmarked or reloaded admin URL works. A missing file with an extension is a 404.
 */
export const AdminRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const { assets } = yield* AdminApp
    const page = (request: HttpServerRequest.HttpServerRequest) => {
      const pathname = new URL(request.url, "http://admin").pathname
      if (pathname === "/admin") return HttpServerResponse.redirect("/admin/", { status: 302 })
      if (assets === undefined) return HttpServerResponse.unsafeJson({ message: NOT_BUILT }, { status: 404 })
      const path = safeDecode(pathname).replace(/^\/admin\/?/, "")
      const asset = assets.get(path === "" ? "index.html" : path)
      if (asset !== undefined) return serve(asset, request)
      if (/\.[a-z0-9]+$/i.test(path)) return HttpServerResponse.unsafeJson({ message: "Not found." }, { status: 404 })
      return serve(assets.get("index.html")!, request)
    }
    yield* router.get("/admin", Effect.map(HttpServerRequest.HttpServerRequest, page))
    yield* router.get("/admin/*", Effect.map(HttpServerRequest.HttpServerRequest, page))
  })
)
