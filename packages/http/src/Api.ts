import { HttpApi, OpenApi } from "@effect/platform"
import { ValidationFailedError } from "./ApiErrors.js"
import { CampaignsGroup } from "./groups/CampaignsGroup.js"
import { ConfirmationGroup } from "./groups/ConfirmationGroup.js"
import { EmailListsGroup } from "./groups/EmailListsGroup.js"
import { SegmentsGroup } from "./groups/SegmentsGroup.js"
import { SendsGroup } from "./groups/SendsGroup.js"
import { StatisticsGroup } from "./groups/StatisticsGroup.js"
import { SubscriberGroup } from "./groups/SubscriberGroup.js"
import { SubscriberImportsGroup } from "./groups/SubscriberImportsGroup.js"
import { SubscribersGroup } from "./groups/SubscribersGroup.js"
import { SuppressionsGroup } from "./groups/SuppressionsGroup.js"
import { TagsGroup } from "./groups/TagsGroup.js"
import { TrackingGroup } from "./groups/TrackingGroup.js"
import { TemplatesGroup } from "./groups/TemplatesGroup.js"
import { FeedbackGroup } from "./feedback/FeedbackGroup.js"
import { TransactionalGroup } from "./transactional/TransactionalGroup.js"
import { AutomationsGroup } from "./automations/AutomationsGroup.js"
import { WebhooksGroup } from "./webhooks/WebhooksGroup.js"
import { AutomationMailsGroup } from "./automations/AutomationMailsGroup.js"

/** The Mailroom HTTP contract: every endpoint, its schemas and errors. The server, OpenAPI and client derive from it. */
export class Api extends HttpApi.make("mailroom")
  .add(TemplatesGroup)
  .add(EmailListsGroup)
  .add(SuppressionsGroup)
  .add(TagsGroup)
  .add(SegmentsGroup)
  .add(SubscribersGroup)
  .add(SubscriberGroup)
  .add(CampaignsGroup)
  .add(SendsGroup)
  .add(SubscriberImportsGroup)
  .add(StatisticsGroup)
  .add(TransactionalGroup)
  .add(AutomationsGroup)
  .add(AutomationMailsGroup)
  .add(WebhooksGroup)
  .add(TrackingGroup)
  .add(ConfirmationGroup)
  .add(FeedbackGroup)
  .addError(ValidationFailedError)
  .annotate(OpenApi.Title, "Mailroom API")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(OpenApi.Description, "Email campaigns, lists and subscribers. Every /api route needs `Authorization: Bearer <token>`.")
  .annotate(OpenApi.Transform, (spec) => {
    for (const [route, path] of Object.entries(spec.paths as Record<string, Record<string, unknown>>)) {
      for (const operation of Object.values(path)) {
        const responses = (operation as { responses?: Record<string, unknown> }).responses
        // a provider's webhook decodes nothing itself: 400 is its malformed payload, and it never answers 422
        if (responses !== undefined && route.startsWith("/feedback/")) delete responses["422"]
        else if (responses !== undefined && "422" in responses) delete responses["400"]
        else if (responses !== undefined && typeof responses["400"] === "object") {
          const body = responses["400"] as { description?: string }
          body.description = "Unknown sort, filter or include"
        }
      }
    }
    return spec
  })
{}
