import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { CampaignCollection, CampaignPayload, SendTestInput } from "@mailroom/core"
import { Schema } from "effect"
import {
  CampaignConflictError,
  CampaignNotSendableError,
  InvalidQueryError,
  NotFoundError,
  ValidationFailedError
} from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Collection, collectionParams, Data } from "../Collection.js"
import { operationDocs } from "../operationDocs.js"
import { CampaignResource } from "../resources/CampaignResource.js"

const CampaignPath = Schema.Struct({ campaign: Schema.String.annotations({ description: "The campaign's uuid." }) })

const example = operationDocs({
  example: {
    name: "December newsletter",
    email_list_uuid: "0d8b1f9e-4c1a-4b7e-9a51-3f6e2c7d8a90",
    subject: "What's new in December",
    from_email: "news@example.com",
    from_name: "Example News",
    html: "<p>Hello {{ subscriber.first_name }}!</p>",
    schedule_at: "2026-12-01 09:30:00",
    track_opens: true
  }
})

const move = <const Name extends string>(name: Name, summary: string, description: string) =>
  HttpApiEndpoint.post(name, `/campaigns/:campaign/${name}`)
    .annotate(OpenApi.Summary, summary)
    .setPath(CampaignPath)
    .addError(NotFoundError)
    .addError(CampaignConflictError)
    .annotate(OpenApi.Description, description)

/** /api/campaigns */
export class CampaignsGroup extends HttpApiGroup.make("campaigns")
  .add(
    HttpApiEndpoint.get("list", "/campaigns")
      .annotate(OpenApi.Summary, "List campaigns")
      .setUrlParams(collectionParams(CampaignCollection))
      .addSuccess(Collection(CampaignResource))
      .addError(InvalidQueryError)
  )
  .add(
    HttpApiEndpoint.post("create", "/campaigns")
      .annotate(OpenApi.Summary, "Create a campaign")
      .setPayload(allErrors(CampaignPayload))
      .annotate(OpenApi.Transform, example)
      .addSuccess(Data(CampaignResource), { status: 201 })
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "A draft, or scheduled when schedule_at (`Y-m-d H:i:s`, UTC) is given.")
  )
  .add(
    HttpApiEndpoint.get("get", "/campaigns/:campaign")
      .annotate(OpenApi.Summary, "Get a campaign")
      .setPath(CampaignPath)
      .addSuccess(Data(CampaignResource))
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.put("update", "/campaigns/:campaign")
      .annotate(OpenApi.Summary, "Replace a campaign")
      .setPath(CampaignPath)
      .setPayload(allErrors(CampaignPayload))
      .annotate(OpenApi.Transform, example)
      .addSuccess(Data(CampaignResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Full replace of a draft or scheduled campaign; other statuses answer 422.")
  )
  .add(
    HttpApiEndpoint.del("delete", "/campaigns/:campaign")
      .annotate(OpenApi.Summary, "Delete a campaign")
      .setPath(CampaignPath)
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.post("sendTest", "/campaigns/:campaign/send-test")
      .annotate(OpenApi.Summary, "Send a test mail of a campaign")
      .setPath(CampaignPath)
      .setPayload(allErrors(SendTestInput))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Mails 1 to 10 comma-separated addresses a `[Test] ` copy; not counted.")
  )
  .add(
    HttpApiEndpoint.post("send", "/campaigns/:campaign/send")
      .annotate(OpenApi.Summary, "Send a campaign")
      .setPath(CampaignPath)
      .addError(NotFoundError)
      .addError(CampaignNotSendableError)
      .annotate(OpenApi.Description, "Starts sending to every eligible subscriber; 400 when already sent or content is missing.")
  )
  .add(move("pause", "Pause a sending campaign", "Stops claiming further sends; 409 unless sending or paused."))
  .add(move(
    "resume",
    "Resume a paused campaign",
    "Continues a paused campaign; 409 unless paused or sending, or when its segment is gone."
  ))
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Description, "Mails to a list or segment: draft, scheduled, sending, paused, sent, cancelled.")
{}
