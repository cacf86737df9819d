import { Schema } from "effect"
import { Flag, MAX_HTML, NullableText, optionalNullable, required, RequiredText, Text } from "../domain/Fields.js"
import { parseAddress } from "./MailAddressList.js"
import { TransactionalTemplateType } from "./TransactionalTemplate.js"

/** Default extra recipients: null, or an array of addresses (`a@b.c` or `Name <a@b.c>`). */
const Recipients = (key: string) =>
  Schema.NullOr(Schema.Array(Text(key, 320))).annotations({ message: () => `The ${key} field must be an array of addresses.` }).pipe(
    Schema.filter((list) => list === null || list.every((item) => parseAddress(item) !== null), {
      message: () => `The ${key} field must contain valid email addresses.`
    })
  )

/** Body of transactional template create and update (update is a full replace). */
export class TransactionalTemplateInput extends Schema.Class<TransactionalTemplateInput>("TransactionalTemplateInput")({
  name: required("name", RequiredText("name")),
  subject: optionalNullable("subject", Text("subject", 998)),
  html: optionalNullable("html", Text("html", MAX_HTML)),
  text: Schema.optional(NullableText("text", MAX_HTML)).pipe(Schema.fromKey("text")),
  type: optionalNullable(
    "type",
    TransactionalTemplateType.annotations({ message: () => "The type field must be html or markdown." })
  ),
  to: Schema.optional(Recipients("to")).pipe(Schema.fromKey("to")),
  cc: Schema.optional(Recipients("cc")).pipe(Schema.fromKey("cc")),
  bcc: Schema.optional(Recipients("bcc")).pipe(Schema.fromKey("bcc")),
  storeMail: optionalNullable("store_mail", Flag("store_mail")),
  trackOpens: optionalNullable("track_opens", Flag("track_opens")),
  trackClicks: optionalNullable("track_clicks", Flag("track_clicks"))
}) {}
