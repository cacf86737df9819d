import { Schema } from "effect"
import { Flag, optional, optionalNullable, required, Text } from "../domain/Fields.js"
import { EventTypes } from "../events/EventType.js"
import { isWebhookSecret } from "./webhookSecret.js"

/** Whether a string is an absolute http or https URL with a host. */
export const isWebhookUrl = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0 && url.username === "" && url.password === ""
  } catch {
    return false
  }
}

const Url = Text("url", 2_000).pipe(
  Schema.filter((url) => isWebhookUrl(url.trim()), { message: () => "The url field must be a valid http or https URL." })
)

/** Event kinds: a list of names, `["*"]` for every kind, or null (every kind). */
const Events = Schema.NullOr(
  Schema.Array(Schema.String).annotations({ message: () => "The events field must be an array of event types." }).pipe(
    Schema.filter((names) => names.every((name) => name === "*" || (EventTypes as ReadonlyArray<string>).includes(name)), {
      message: () => `The events field may hold "*" or these event types: ${EventTypes.join(", ")}.`
    })
  )
)

const ListUuids = Schema.NullOr(
  Schema.Array(Schema.String).annotations({ message: () => "The email list uuids field must be an array of uuids." })
)

const Secret = Schema.String.annotations({ message: () => "The secret field must be a string." }).pipe(
  Schema.filter(isWebhookSecret, { message: () => "The secret field must be whsec_ followed by 24 to 64 bytes in base64." })
)

const fields = {
  name: optionalNullable("name", Text("name")),
  events: optional("events", Events),
  emailListUuids: optional("email_list_uuids", ListUuids),
  secret: optionalNullable("secret", Secret),
  enabled: optionalNullable("enabled", Flag("enabled"))
}

/** Body of POST /api/webhooks: the url is required; the secret is generated when absent. */
export class WebhookInput extends Schema.Class<WebhookInput>("WebhookInput")({
  url: required("url", Url),
  ...fields
}) {}

/** Body of PUT /api/webhooks/{uuid}: the fields given are changed, the others kept; a new secret replaces the old. */
export class WebhookUpdateInput extends Schema.Class<WebhookUpdateInput>("WebhookUpdateInput")({
  url: optional("url", Url),
  ...fields
}) {}
