import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { BounceCollection, ClickCollection, FeedbackInput, OpenCollection, UnsubscribeCollection } from "@mailroom/core"
import { Schema } from "effect"
import { InvalidQueryError, NotFoundError, ValidationFailedError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Collection, collectionParams } from "../Collection.js"
import { BounceResource, ClickResource, OpenResource, UnsubscribeResource } from "../resources/StatisticsResources.js"

const CampaignPath = Schema.Struct({ campaign: Schema.String.annotations({ description: "The campaign's uuid." }) })

/** /api/campaigns/{campaign}/opens|clicks|unsubscribes|bounces, and the bounce/complaint feedback endpoint. */
export class StatisticsGroup extends HttpApiGroup.make("statistics")
  .add(
    HttpApiEndpoint.get("opens", "/campaigns/:campaign/opens")
      .annotate(OpenApi.Summary, "List a campaign's opens")
      .setPath(CampaignPath)
      .setUrlParams(collectionParams(OpenCollection))
      .addSuccess(Collection(OpenResource))
      .addError(InvalidQueryError)
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.get("clicks", "/campaigns/:campaign/clicks")
      .annotate(OpenApi.Summary, "List a campaign's clicked links")
      .setPath(CampaignPath)
      .setUrlParams(collectionParams(ClickCollection))
      .addSuccess(Collection(ClickResource))
      .addError(InvalidQueryError)
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.get("unsubscribes", "/campaigns/:campaign/unsubscribes")
      .annotate(OpenApi.Summary, "List a campaign's unsubscribes")
      .setPath(CampaignPath)
      .setUrlParams(collectionParams(UnsubscribeCollection))
      .addSuccess(Collection(UnsubscribeResource))
      .addError(InvalidQueryError)
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.get("bounces", "/campaigns/:campaign/bounces")
      .annotate(OpenApi.Summary, "List a campaign's bounces")
      .setPath(CampaignPath)
      .setUrlParams(collectionParams(BounceCollection))
      .addSuccess(Collection(BounceResource))
      .addError(InvalidQueryError)
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.post("feedback", "/feedback")
      .annotate(OpenApi.Summary, "Record a bounce or complaint")
      .setPayload(allErrors(FeedbackInput))
      .addError(ValidationFailedError)
      .annotate(
        OpenApi.Description,
        "A provider's bounce or complaint. bounce (hard) and complaint suppress the address and unsubscribe the " +
          "send's subscriber; soft_bounce is only recorded. Pass send_uuid to attribute it to a campaign."
      )
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Description, "Campaign statistics and delivery feedback.")
{}
