import { Schema, SchemaAST } from "effect"
import { EmailText, Flag, MAX_HTML, NullableText, optional, optionalNullable, required, RequiredText } from "./Fields.js"
import { mailSwitchFields, TemplateFieldValues } from "./mailInputFields.js"

/** `Y-m-d H:i:s` (UTC), e.g. `2026-12-01 09:30:00`. */
export const ScheduleAt = Schema.String.pipe(
  Schema.filter((text) => {
    if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) return false
    const parsed = new Date(`${text.replace(" ", "T")}Z`)
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 19) === text.replace(" ", "T")
  }, { message: () => "The schedule at field must be a valid date in the format Y-m-d H:i:s." })
)

/** Body of campaign create and update (update is a full replace: absent fields take their defaults). */
export class CampaignInput extends Schema.Class<CampaignInput>("CampaignInput")({
  name: required("name", RequiredText("name")),
  emailListUuid: required(
    "email_list_uuid",
    Schema.String.annotations({ message: () => "The email list uuid field must be a string." })
  ),
  templateUuid: optionalNullable("template_uuid", Schema.String),
  fields: optionalNullable("fields", TemplateFieldValues),
  segmentUuid: optionalNullable("segment_uuid", Schema.String),
  html: optional("html", NullableText("html", MAX_HTML)),
  structuredHtml: optional("structured_html", NullableText("structured_html", MAX_HTML)),
  mailableClass: optional("mailable_class", NullableText("mailable_class")),
  fromEmail: optionalNullable("from_email", EmailText("from_email")),
  fromName: optional("from_name", NullableText("from_name")),
  subject: optional("subject", NullableText("subject", 998)),
  scheduleAt: optionalNullable("schedule_at", ScheduleAt),
  ...mailSwitchFields,
  disableWebview: optionalNullable("disable_webview", Flag("disable_webview")),
  /** Only `draft` (behaviors.md 8.2): a campaign is made a draft and sent with `send`. */
  type: optionalNullable("type", Schema.Literal("draft").annotations({ message: () => "The selected type is invalid. Only draft is allowed." }))
}) {}

/**
 * The campaign body as a client writes it: every field CampaignInput reads, plus `email_list_id`, the integer list id
 * older clients send in place of `email_list_uuid`. It is what the OpenAPI document shows for create and update.
 */
export const CampaignBody = Schema.extend(
  Schema.encodedBoundSchema(CampaignInput),
  Schema.Struct({
    email_list_id: Schema.optional(Schema.NullOr(Schema.Int).annotations({
      description: "The list's integer id, accepted in place of email_list_uuid (older clients)."
    }))
  })
).annotations({
  identifier: "CampaignBody",
  description: "Campaign create and update body (update replaces the campaign: absent fields take their defaults)."
})

/** A JSON object body. */
const Body = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/**
 * The campaign body as it arrives: the integer `email_list_id` of older clients is taken in place of
 * `email_list_uuid`, then the body decodes as CampaignInput (every invalid field reported at once). Documented as
 * CampaignBody: the loose first step only moves the list id, so a missing name and a missing list are still
 * reported together.
 */
export const CampaignPayload = Schema.compose(
  Schema.transform(Body, Body, {
    strict: true,
    decode: ({ email_list_id, ...body }) =>
      body["email_list_uuid"] == null && email_list_id != null ? { ...body, email_list_uuid: String(email_list_id) } : body,
    encode: (body) => body
  }),
  CampaignInput,
  { strict: false }
).annotations({ [SchemaAST.SurrogateAnnotationId]: CampaignBody.ast })

/** Body of POST /campaigns/{campaign}/send-test: one address or up to 10, comma-separated. */
export class SendTestInput extends Schema.Class<SendTestInput>("SendTestInput")({
  email: required("email", RequiredText("email", 5000))
}) {}
