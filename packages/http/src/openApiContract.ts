/** A JSON object of the OpenAPI document. */
type Json = Record<string, any>

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const jsonAnswer = (name: string, description: string, headers?: Json): Json => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: { "application/json": { schema: ref(name) } }
})

/** The refs of a response's JSON schema: `$ref`, or each `$ref` of an `anyOf`. */
const refsOf = (schema: Json | undefined): Array<Json> =>
  schema === undefined ? [] : Array.isArray(schema["anyOf"]) ? schema["anyOf"] : [schema]

/**
 * HttpApi declares `HttpApiDecodeError` as 400 on every operation, but Mailroom answers decode failures 422
 * (ErrorResponses): drop it from 400, keeping the operation's own 400 errors (unknown sort keys, not sendable...).
 */
const withoutDecodeError = (responses: Json, schemas: Json) => {
  const answer = responses["400"] as Json | undefined
  const content = answer?.["content"]?.["application/json"] as Json | undefined
  if (answer === undefined || content === undefined) return
  const kept = refsOf(content["schema"]).filter((schema) => schema["$ref"] !== ref("HttpApiDecodeError").$ref)
  if (kept.length === 0) {
    delete responses["400"]
    return
  }
  content["schema"] = kept.length === 1 ? kept[0] : { anyOf: kept }
  answer["description"] = kept
    .map((schema) => schemas[String(schema["$ref"]).split("/").pop()!]?.["description"] ?? "Bad request.")
    .join(" ")
}

const retryAfter = {
  "Retry-After": { description: "Seconds until the next minute, when requests are counted again.", schema: { type: "integer" } }
}

/**
 * Completes the generated document into the contract the server keeps: answers the middleware gives before any
 * endpoint runs (413 and 415 where a body is read, 429 on /api when rate limiting is on), no 422 on public links and
 * provider webhooks (they decode nothing), no 400 for decode failures (they are 422), and no unused components.
 */
export const openApiContract = (spec: Json): Json => {
  for (const [route, path] of Object.entries(spec["paths"] as Json)) {
    const api = route.startsWith("/api/")
    for (const operation of Object.values(path as Json) as Array<Json>) {
      const responses = operation["responses"] as Json
      withoutDecodeError(responses, spec["components"]["schemas"])
      if (!api) delete responses["422"]
      if (operation["requestBody"] !== undefined || route.startsWith("/feedback/")) {
        responses["413"] = jsonAnswer("PayloadTooLargeError", "The request body is over the size limit (10 MiB by default).")
        responses["415"] = jsonAnswer(
          "UnsupportedMediaTypeError",
          "The body's media type is not taken: multipart anywhere, anything but JSON on /api."
        )
      }
      if (api) responses["429"] = jsonAnswer("TooManyRequestsError", "Over the token's requests per minute.", retryAfter)
    }
  }
  const schemas = spec["components"]["schemas"] as Json
  for (const name of ["HttpApiDecodeError", "Issue", "PropertyKey"]) {
    const others = JSON.stringify({ ...spec, components: { ...spec["components"], schemas: { ...schemas, [name]: null } } })
    if (!others.includes(`"${ref(name).$ref}"`)) delete schemas[name]
  }
  return spec
}
