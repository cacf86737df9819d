import { Schema } from "effect"

/** A rendered preview of a campaign mail. */
export const CampaignPreviewResource = Schema.Struct({
  subject: Schema.String,
  html: Schema.String.annotations({ description: "The whole html of the mail as the recipient would get it." })
}).annotations({ identifier: "CampaignPreview" })
