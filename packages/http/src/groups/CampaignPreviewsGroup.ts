import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { CampaignPreviewInput } from "@mailroom/core"
import { Schema } from "effect"
import { NotFoundError, ValidationFailedError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Data } from "../Collection.js"
import { operationDocs } from "../operationDocs.js"
import { CampaignPreviewResource } from "../resources/CampaignPreviewResource.js"

const CampaignPath = Schema.Struct({ campaign: Schema.String.annotations({ description: "The campaign's uuid." }) })
const PreviewParams = Schema.Struct({
  subscriber_uuid: Schema.optional(Schema.String.annotations({
    description: "The subscriber (of the campaign's list) whose values fill the mail; sample values without it."
  }))
})

/** /api/campaigns/preview and /api/campaigns/{campaign}/preview: mails rendered as a send would render them. */
export class CampaignPreviewsGroup extends HttpApiGroup.make("campaignPreviews")
  .add(
    HttpApiEndpoint.post("preview", "/campaigns/preview")
      .annotate(OpenApi.Summary, "Preview unsaved campaign content")
      .setPayload(allErrors(CampaignPreviewInput))
      .annotate(OpenApi.Transform, operationDocs({
        example: { subject: "Hello {{ subscriber.first_name }}", html: "<p>Hi {{ subscriber.first_name }}</p>" }
      }))
      .addSuccess(Data(CampaignPreviewResource))
      .addError(ValidationFailedError)
      .annotate(
        OpenApi.Description,
        "Renders the content as a send would for one subscriber (`subscriber_uuid`) or sample values; stores nothing. " +
          "Unknown list, template or subscriber and invalid Liquid answer 422 at the field."
      )
  )
  .add(
    HttpApiEndpoint.get("previewSaved", "/campaigns/:campaign/preview")
      .annotate(OpenApi.Summary, "Preview a campaign")
      .setPath(CampaignPath)
      .setUrlParams(PreviewParams)
      .addSuccess(Data(CampaignPreviewResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Renders the saved campaign as its send would, for `subscriber_uuid` or sample values.")
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Description, "Previews of campaign mails, rendered by the sending code.")
{}
