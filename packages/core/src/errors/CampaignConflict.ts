import { Schema } from "effect"

/** The campaign's status does not allow the action (pause, resume), or its segment is no longer valid. */
export class CampaignConflict extends Schema.TaggedError<CampaignConflict>()("CampaignConflict", {
  message: Schema.String
}) {}
