import { HttpServerResponse } from "@effect/platform"
import type { SubscriberImport } from "@mailroom/core"
import { Stream } from "effect"
import { toSubscriberImportResource } from "./SubscriberImportResource.js"

/** Stands in for the CSV while the rest of the resource is serialised; cannot occur in stored text (no NUL). */
const MARK = "\u0000csv\u0000"
const ESCAPED_MARK = JSON.stringify(MARK).slice(1, -1)

/**
 * `{data: import}` as a streamed JSON response: the resource's fields as usual and `subscribers_csv` written part
 * by part as the store gives it, so a draft of 100 MB is sent without being held whole (nor copied three times into
 * one string, its JSON and a buffer). `csv` is null when the import has none to show.
 */
export const subscriberImportResponse = (
  subscriberImport: SubscriberImport,
  csv: Stream.Stream<string> | null
): HttpServerResponse.HttpServerResponse => {
  if (csv === null) return HttpServerResponse.unsafeJson({ data: toSubscriberImportResource(subscriberImport, null) })
  const json = JSON.stringify({ data: toSubscriberImportResource(subscriberImport, MARK) })
  const at = json.indexOf(ESCAPED_MARK)
  const body = Stream.make(json.slice(0, at)).pipe(
    Stream.concat(Stream.map(csv, (text) => JSON.stringify(text).slice(1, -1))),
    Stream.concat(Stream.make(json.slice(at + ESCAPED_MARK.length))),
    Stream.encodeText
  )
  return HttpServerResponse.stream(body, { contentType: "application/json" })
}
