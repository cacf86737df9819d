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
import { CampaignResource } from "../resources/CampaignResource.js"

const CampaignPath = Schema.Struct({ campaign: Schema.String.annotations({ description: "The campaign's uuid." }) })

const move = <const Name extends string>(name: Name, description: string) =>
  HttpApiEndpoint.post(name, `/campaigns/:campaign/${name}`)
    .setPath(CampaignPath)
    .addError(NotFoundError)
    .addError(CampaignConflictError)
    .annotate(OpenApi.Description, description)

/** /api/campaigns */
export class CampaignsGroup extends HttpApiGroup.make("campaigns")
  .add(
    HttpApiEndpoint.get("list", "/campaigns")
      .setUrlParams(collectionParams(CampaignCollection))
      .addSuccess(Collection(CampaignResource))
      .addError(InvalidQueryError)
  )
  .add(
    HttpApiEndpoint.post("create", "/campaigns")
      .setPayload(allErrors(CampaignPayload))
      .addSuccess(Data(CampaignResource), { status: 201 })
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "A draft, or scheduled when schedule_at (`Y-m-d H:i:s`, UTC) is given.")
  )
  .add(HttpApiEndpoint.get("get", "/campaigns/:campaign").setPath(CampaignPath).addSuccess(Data(CampaignResource)).addError(NotFoundError))
  .add(
    HttpApiEndpoint.put("update", "/campaigns/:campaign")
      .setPath(CampaignPath)
      .setPayload(allErrors(CampaignPayload))
      .addSuccess(Data(CampaignResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Full replace of a draft or scheduled campaign; other statuses answer 422.")
  )
  .add(HttpApiEndpoint.del("delete", "/campaigns/:campaign").setPath(CampaignPath).addError(NotFoundError))
  .add(
    HttpApiEndpoint.post("sendTest", "/campaigns/:campaign/send-test")
      .setPath(CampaignPath)
      .setPayload(allErrors(SendTestInput))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Mails 1 to 10 comma-separated addresses a `[Test] ` copy; not counted.")
  )
  .add(
    HttpApiEndpoint.post("send", "/campaigns/:campaign/send")
      .setPath(CampaignPath)
      .addError(NotFoundError)
      .addError(CampaignNotSendableError)
      .annotate(OpenApi.Description, "Starts sending to every eligible subscriber; 400 when already sent or content is missing.")
  )
  .add(move("pause", "Stops claiming further sends; 409 unless sending or paused."))
  .add(move("resume", "Continues a paused campaign; 409 unless paused or sending, or when its segment is gone."))
  .middleware(Authorization)
  .prefix("/api")
  .annotate(OpenApi.Description, "Mails to a list or segment: draft, scheduled, sending, paused, sent, cancelled.")
{}
