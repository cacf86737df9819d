import { Schema } from "effect"
import { Flag, optional, optionalNullable, RequiredText } from "../domain/Fields.js"
import { AutomationActions } from "./AutomationAction.js"
import { AutomationTrigger } from "./AutomationTrigger.js"

/** Body of automation create and update: absent fields keep their value (or default on create); `name` is required on create. */
export class AutomationInput extends Schema.Class<AutomationInput>("AutomationInput")({
  name: optional("name", RequiredText("name")),
  emailListUuid: optional("email_list_uuid", Schema.NullOr(Schema.String)),
  segmentUuid: optional("segment_uuid", Schema.NullOr(Schema.String)),
  trigger: optional("trigger", Schema.NullOr(AutomationTrigger)),
  actions: optional("actions", AutomationActions.pipe(Schema.maxItems(500))),
  repeatEnabled: optionalNullable("repeat_enabled", Flag("repeat_enabled")),
  repeatOnlyAfterHalt: optionalNullable("repeat_only_after_halt", Flag("repeat_only_after_halt"))
}) {}

/** Body of POST /automations/{uuid}/trigger: the subscribers to enrol. */
export class TriggerInput extends Schema.Class<TriggerInput>("TriggerInput")({
  subscribers: Schema.propertySignature(
    Schema.Array(Schema.String).pipe(Schema.maxItems(1000)).annotations({ message: () => "The subscribers field must be an array of at most 1000 subscriber uuids." })
  ).annotations({ missingMessage: () => "The subscribers field is required." })
}) {}
