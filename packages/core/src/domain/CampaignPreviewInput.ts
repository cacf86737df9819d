import { Schema } from "effect"
import { CampaignInput } from "./CampaignInput.js"
import { optional, optionalNullable, Text } from "./Fields.js"

const campaign = CampaignInput.fields

/**
 * Body of POST /api/campaigns/preview: unsaved campaign content (the campaign body's fields of the same names and
 * meaning, all optional) and whose values fill it (`subscriber_uuid`; sample values without it).
 */
export class CampaignPreviewInput extends Schema.Class<CampaignPreviewInput>("CampaignPreviewInput")({
  name: optional("name", Text("name")),
  emailListUuid: optionalNullable("email_list_uuid", Text("email_list_uuid")),
  templateUuid: campaign.templateUuid,
  fields: campaign.fields,
  html: campaign.html,
  subject: campaign.subject,
  utmTags: campaign.utmTags,
  trackOpens: campaign.trackOpens,
  trackClicks: campaign.trackClicks,
  subscriberUuid: optionalNullable("subscriber_uuid", Text("subscriber_uuid"))
}) {}
