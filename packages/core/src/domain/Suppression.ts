import { Schema } from "effect"
import { SuppressionId, SuppressionUuid } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

/** Why an address is suppressed. */
export const SuppressionReason = Schema.Literal("hard_bounce", "spam_complaint", "manual")
/** @since 0.1.0 */
export type SuppressionReason = typeof SuppressionReason.Type

/** A globally suppressed address: never mailed, whatever list it is on. */
export class Suppression extends Schema.Class<Suppression>("Suppression")({
  id: SuppressionId,
  uuid: SuppressionUuid,
  email: Schema.String,
  reason: SuppressionReason,
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {}
