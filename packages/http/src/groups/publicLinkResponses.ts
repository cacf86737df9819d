import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/** 200 `text/html`: a page shown to the person who opened a link from a mail. */
export const Html = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/html" })).annotations({
  description: "An HTML page."
})

/** 200 `image/gif`: the 1×1 transparent open pixel. */
export const Gif = Schema.Uint8ArrayFromSelf.pipe(HttpApiSchema.withEncoding({ kind: "Uint8Array", contentType: "image/gif" }))
  .annotations({
    identifier: "OpenPixel",
    description: "A 1×1 transparent GIF.",
    jsonSchema: { type: "string", contentMediaType: "image/gif" }
  })

/** 404 `text/html`: the page of a link that is not (or no longer) valid: bad signature, unknown send or subscriber. */
export const LinkNotValid = Html.annotations({
  ...HttpApiSchema.annotations({ status: 404 }),
  description: "A page saying the link is not valid (any more)."
})

/** An answer without a body that sends the browser on (`Location`), e.g. 302 to a clicked link's address. */
export const Redirect = (status: 302 | 303, description: string) => HttpApiSchema.Empty(status).annotations({ description })

/** Declares the `Location` header of an operation's redirect answer (the platform has no way to declare headers). */
export const withLocation = (status: 302 | 303, description: string) => (operation: Record<string, any>): Record<string, any> => {
  const responses = operation["responses"] as Record<string, { headers?: Record<string, unknown> } | undefined>
  const answer = responses[String(status)]
  if (answer !== undefined) {
    answer.headers = { Location: { description, required: true, schema: { type: "string", format: "uri" } } }
  }
  return operation
}
