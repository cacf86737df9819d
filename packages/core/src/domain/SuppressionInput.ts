import { Schema } from "effect"
import { EmailText, optionalNullable, required } from "./Fields.js"
import { SuppressionReason } from "./Suppression.js"

/** Body of suppression create: an address and an optional reason (default `manual`). */
export class SuppressionInput extends Schema.Class<SuppressionInput>("SuppressionInput")({
  email: required("email", EmailText("email")),
  reason: optionalNullable(
    "reason",
    SuppressionReason.annotations({
      message: () => "The selected reason is invalid. Allowed reasons are hard_bounce, spam_complaint, manual."
    })
  )
}) {}
