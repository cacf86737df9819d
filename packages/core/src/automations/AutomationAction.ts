import { Schema } from "effect"
import { isWebUrl, RequiredText, TextList } from "../domain/Fields.js"
import { isWebhookSecret } from "../webhooks/webhookSecret.js"

/** Units of a wait or of a condition's checking window; `weekdays` counts Monday to Friday only. */
export const DurationUnit = Schema.Literal("minutes", "hours", "days", "weekdays", "weeks", "months")
/** @since 0.3.0 */
export type DurationUnit = typeof DurationUnit.Type

/** A length of time: `{length, unit}`. */
export const ActionDuration = Schema.Struct({
  length: Schema.Int.pipe(Schema.between(1, 100_000)).annotations({ message: () => "The length must be a whole number from 1 to 100000." }),
  unit: DurationUnit
})
/** @since 0.3.0 */
export type ActionDuration = typeof ActionDuration.Type

/** The comparisons of an `attribute` condition. */
export const Comparison = Schema.Literal("=", "!=", ">", ">=", "<", "<=", "empty", "not_empty")

/** What a `condition` action checks. */
export const ActionCondition = Schema.Union(
  Schema.Struct({ type: Schema.Literal("has_tag"), tag: RequiredText("tag") }),
  Schema.Struct({ type: Schema.Literal("opened"), automation_mail_uuid: Schema.String }),
  Schema.Struct({ type: Schema.Literal("clicked"), automation_mail_uuid: Schema.String, url: Schema.optional(Schema.NullOr(Schema.String)) }),
  Schema.Struct({
    type: Schema.Literal("attribute"),
    attribute: RequiredText("attribute"),
    comparison: Comparison,
    value: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number)))
  })
).annotations({ identifier: "AutomationCondition" })
/** @since 0.3.0 */
export type ActionCondition = typeof ActionCondition.Type

/** One step of an automation; branching steps hold more actions. `uuid` is given by the server when absent. */
export type AutomationAction =
  | { readonly uuid?: string | undefined; readonly type: "send_mail"; readonly automation_mail_uuid: string }
  | { readonly uuid?: string | undefined; readonly type: "wait"; readonly length: number; readonly unit: DurationUnit }
  | {
    readonly uuid?: string | undefined
    readonly type: "condition"
    readonly condition: ActionCondition
    readonly window: ActionDuration
    readonly yes: ReadonlyArray<AutomationAction>
    readonly no: ReadonlyArray<AutomationAction>
  }
  | { readonly uuid?: string | undefined; readonly type: "split"; readonly left: ReadonlyArray<AutomationAction>; readonly right: ReadonlyArray<AutomationAction> }
  | { readonly uuid?: string | undefined; readonly type: "add_tags" | "remove_tags"; readonly tags: ReadonlyArray<string> }
  | { readonly uuid?: string | undefined; readonly type: "unsubscribe" | "halt" }
  | { readonly uuid?: string | undefined; readonly type: "webhook"; readonly url: string; readonly secret: string }
  | { readonly uuid?: string | undefined; readonly type: "subscribe_to_list"; readonly email_list_uuid: string; readonly tags: ReadonlyArray<string> }

/** An action as written by a client (a `subscribe_to_list` may leave out its tags). */
export type AutomationActionEncoded =
  | Exclude<AutomationAction, { readonly type: "subscribe_to_list" | "condition" | "split" }>
  | {
    readonly uuid?: string | undefined
    readonly type: "condition"
    readonly condition: ActionCondition
    readonly window: ActionDuration
    readonly yes: ReadonlyArray<AutomationActionEncoded>
    readonly no: ReadonlyArray<AutomationActionEncoded>
  }
  | { readonly uuid?: string | undefined; readonly type: "split"; readonly left: ReadonlyArray<AutomationActionEncoded>; readonly right: ReadonlyArray<AutomationActionEncoded> }
  | { readonly uuid?: string | undefined; readonly type: "subscribe_to_list"; readonly email_list_uuid: string; readonly tags?: ReadonlyArray<string> | undefined }

const uuid = Schema.optional(Schema.UUID)
const Actions: Schema.Schema<ReadonlyArray<AutomationAction>, ReadonlyArray<AutomationActionEncoded>> = Schema.Array(
  Schema.suspend((): Schema.Schema<AutomationAction, AutomationActionEncoded> => AutomationAction)
)
const Tags = TextList("tags").pipe(Schema.minItems(1, { message: () => "The tags field must name at least one tag." }))

/** The schema of one action (`{type, ...}`), recursive through `condition` and `split` branches. */
export const AutomationAction: Schema.Schema<AutomationAction, AutomationActionEncoded> = Schema.Union(
  Schema.Struct({ uuid, type: Schema.Literal("send_mail"), automation_mail_uuid: Schema.String }),
  Schema.Struct({ uuid, type: Schema.Literal("wait"), ...ActionDuration.fields }),
  Schema.Struct({ uuid, type: Schema.Literal("condition"), condition: ActionCondition, window: ActionDuration, yes: Actions, no: Actions }),
  Schema.Struct({ uuid, type: Schema.Literal("split"), left: Actions, right: Actions }),
  Schema.Struct({ uuid, type: Schema.Literal("add_tags", "remove_tags"), tags: Tags }),
  Schema.Struct({ uuid, type: Schema.Literal("unsubscribe", "halt") }),
  Schema.Struct({
    uuid,
    type: Schema.Literal("webhook"),
    url: Schema.String.pipe(Schema.filter(isWebUrl, { message: () => "The url must be an http or https URL." })),
    secret: Schema.String.pipe(Schema.filter(isWebhookSecret, {
      message: () => "The secret must be a Standard Webhooks secret: whsec_ and the base64 of 24 to 64 bytes."
    }))
  }),
  Schema.Struct({
    uuid,
    type: Schema.Literal("subscribe_to_list"),
    email_list_uuid: Schema.String,
    tags: Schema.optionalWith(TextList("tags"), { default: () => [] })
  })
).annotations({ identifier: "AutomationAction", description: "One step: `{type, ...}`; `condition` and `split` hold more actions." })

/** A list of actions (an automation's, or a branch's). */
export const AutomationActions = Actions
