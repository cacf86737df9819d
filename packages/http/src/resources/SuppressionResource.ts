import { formatTimestamp, type Suppression, SuppressionReason } from "@mailroom/core"
import { Schema } from "effect"

/** A suppression as the API returns it. */
export const SuppressionResource = Schema.Struct({
  uuid: Schema.UUID,
  email: Schema.String,
  reason: SuppressionReason,
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "Suppression" })

/** Renders a suppression. */
export const toSuppressionResource = (suppression: Suppression): typeof SuppressionResource.Type => ({
  uuid: suppression.uuid,
  email: suppression.email,
  reason: suppression.reason,
  created_at: formatTimestamp(suppression.createdAt),
  updated_at: formatTimestamp(suppression.updatedAt)
})
