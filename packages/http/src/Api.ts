import { HttpApi, OpenApi } from "@effect/platform"
import { PayloadTooLargeError, TooManyRequestsError, UnsupportedMediaTypeError, ValidationFailedError } from "./ApiErrors.js"
import { openApiContract } from "./openApiContract.js"
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
import { TokensGroup } from "./tokens/TokensGroup.js"
import { CampaignPreviewsGroup } from "./groups/CampaignPreviewsGroup.js"
import { ActivityGroup } from "./groups/ActivityGroup.js"

const description = "Email campaigns, lists and subscribers, transactional mails, automations and webhooks. " +
  "Every /api operation needs `Authorization: Bearer <token>` (a token's abilities decide what it may do: 403 " +
  "otherwise). Errors are JSON `{message}`, validation errors `{message, errors: {field: [messages]}}` (422; a key " +
  "a body schema does not list is refused there too). Lists take `page`, `per_page` (at most 100), `sort` and " +
  "`filter[...]`; an unknown sort or filter key is a 400. Bodies are JSON, at most 10 MiB (413). The public links in " +
  "mails (`/t`, `/u`, `/webview`, `/confirm`) and provider webhooks (`/feedback`) need no token."

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
  .add(CampaignPreviewsGroup)
  .add(SendsGroup)
  .add(SubscriberImportsGroup)
  .add(StatisticsGroup)
  .add(ActivityGroup)
  .add(TransactionalGroup)
  .add(AutomationsGroup)
  .add(AutomationMailsGroup)
  .add(WebhooksGroup)
  .add(TokensGroup)
  .add(TrackingGroup)
  .add(ConfirmationGroup)
  .add(FeedbackGroup)
  .addError(ValidationFailedError)
  .annotate(HttpApi.AdditionalSchemas, [PayloadTooLargeError, UnsupportedMediaTypeError, TooManyRequestsError])
  .annotate(OpenApi.Title, "Mailroom API")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(OpenApi.License, { name: "MIT", url: "https://opensource.org/license/mit" })
  .annotate(OpenApi.Servers, [{ url: "/", description: "The Mailroom server that serves this document." }])
  .annotate(OpenApi.Description, description)
  .annotate(OpenApi.Transform, openApiContract)
{}
