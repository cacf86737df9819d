import { type HttpApp, HttpServerError, HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"

/** Public link paths whose last segment is a signature (the secret that makes the link work). */
const SIGNED = /^\/(t\/o|t\/c|u|webview|confirm)\/[^/?#]+(?:\/[^/?#]+)*\/[^/?#]+$/
const ADDRESS = /@|%40/i
/** A provider webhook authenticated by a secret last path segment. */
const SECRET_PATH = /^\/feedback\/postmark\/[^/?#]+$/

/**
 * A request URL as the log shows it: the signature of a public mail link, a webhook's secret path segment and any
 * path segment or query value that holds an address are replaced by `…`, so logs never carry working links, webhook
 * secrets or subscribers' addresses.
 */
export const redactUrl = (url: string): string => {
  const at = url.indexOf("?")
  let path = at < 0 ? url : url.slice(0, at)
  const query = at < 0 ? "" : url.slice(at + 1)
  if ((SIGNED.test(path) && path.split("/").length > 3) || SECRET_PATH.test(path)) path = path.replace(/\/[^/]+$/, "/…")
  path = path.split("/").map((segment) => (ADDRESS.test(segment) ? "…" : segment)).join("/")
  if (query === "") return path
  const params = query.split("&").map((pair) => {
    const eq = pair.indexOf("=")
    return eq >= 0 && ADDRESS.test(pair.slice(eq + 1)) ? `${pair.slice(0, eq)}=…` : pair
  })
  return `${path}?${params.join("&")}`
}

/** Logs one line per request (method, redacted URL, status), like the platform's logger but with `redactUrl`. */
export const requestLogger = (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.withLogSpan(
      Effect.flatMap(Effect.exit(app), (exit) => {
        const annotations = { "http.method": request.method, "http.url": redactUrl(request.url) }
        if (exit._tag === "Failure") {
          const [response, cause] = HttpServerError.causeResponseStripped(exit.cause)
          return Effect.zipRight(
            Effect.annotateLogs(Effect.log(cause._tag === "Some" ? cause.value : "Sent HTTP Response"), {
              ...annotations,
              "http.status": response.status
            }),
            exit
          )
        }
        return Effect.zipRight(
          Effect.annotateLogs(Effect.log("Sent HTTP response"), { ...annotations, "http.status": exit.value.status }),
          exit
        )
      }),
      "http.span"
    ))
