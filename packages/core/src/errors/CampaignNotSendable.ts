import { Schema } from "effect"

/** The campaign cannot be sent (already sent, or missing list, sender, subject or content). */
export class CampaignNotSendable extends Schema.TaggedError<CampaignNotSendable>()("CampaignNotSendable", {
  message: Schema.String
}) {}
