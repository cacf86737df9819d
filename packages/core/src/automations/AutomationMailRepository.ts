import { Context, type Effect, type Option } from "effect"
import type { SendUuid, SubscriberId } from "../domain/Ids.js"
import type { AutomationMailId, AutomationMailUuid } from "./AutomationIds.js"

/** Placeholder until the automation-mails branch lands (replaced by its port). */
export class AutomationMailRepository extends Context.Tag("@mailroom/AutomationMailRepository")<AutomationMailRepository, {
  readonly findByUuid: (uuid: AutomationMailUuid) => Effect.Effect<Option.Option<{ readonly id: AutomationMailId; readonly uuid: string }>>
  readonly queueSends: (
    sends: ReadonlyArray<{ readonly uuid: SendUuid; readonly mailId: AutomationMailId; readonly runId: number; readonly subscriberId: SubscriberId; readonly email: string }>,
    at: Date
  ) => Effect.Effect<number>
}>() {}
