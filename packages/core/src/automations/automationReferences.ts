import { Effect, Option } from "effect"
import type { EmailListId, EmailListUuid, SegmentId, SegmentUuid } from "../domain/Ids.js"
import { ValidationError } from "../errors/ValidationError.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { SegmentRepository } from "../ports/SegmentRepository.js"
import { parseUuid } from "../usecases/lookup.js"
import type { AutomationAction } from "./AutomationAction.js"
import type { AutomationMailUuid } from "./AutomationIds.js"
import { AutomationMailRepository } from "./AutomationMailRepository.js"
import { treeProblems, walkActions } from "./actionTree.js"

/** The list and segment an automation names, resolved. */
export interface Audience {
  readonly emailListId: EmailListId | null
  readonly segmentId: SegmentId | null
}

/**
 * Resolves an automation's list and segment and checks its action tree: structure (a uuid used twice, a split with
 * actions after it) and references (automation mails, lists), every problem keyed by its path
 * (`actions.2.yes.0.automation_mail_uuid`). Fails with one ValidationError listing them all.
 */
export const checkAutomation = (
  input: { readonly emailListUuid: string | null; readonly segmentUuid: string | null; readonly actions: ReadonlyArray<AutomationAction> }
) =>
  Effect.gen(function*() {
    const lists = yield* EmailListRepository
    const segments = yield* SegmentRepository
    const mails = yield* AutomationMailRepository
    const errors: Record<string, Array<string>> = treeProblems(input.actions)
    const problem = (key: string, message: string) => (errors[key] ??= []).push(message)
    let emailListId: EmailListId | null = null
    if (input.emailListUuid !== null) {
      const list = yield* Option.match(parseUuid(input.emailListUuid), {
        onNone: () => Effect.succeedNone,
        onSome: (uuid) => lists.findByUuid(uuid as EmailListUuid)
      })
      if (Option.isSome(list)) emailListId = list.value.id
      else problem("email_list_uuid", "The selected email list uuid is invalid.")
    }
    let segmentId: SegmentId | null = null
    if (input.segmentUuid !== null) {
      const segment = yield* Option.match(parseUuid(input.segmentUuid), {
        onNone: () => Effect.succeedNone,
        onSome: (uuid) => segments.findByUuid(uuid as SegmentUuid)
      })
      if (Option.isNone(segment) || (emailListId !== null && segment.value.emailListId !== emailListId)) {
        problem("segment_uuid", "The selected segment uuid is invalid.")
      } else segmentId = segment.value.id
      if (input.emailListUuid === null) problem("email_list_uuid", "The email list uuid field is required when a segment is given.")
    }
    const references: Array<{ readonly key: string; readonly check: Effect.Effect<boolean> }> = []
    const mailExists = (uuid: string) =>
      Option.match(parseUuid(uuid), { onNone: () => Effect.succeed(false), onSome: (id) => Effect.map(mails.findByUuid(id as AutomationMailUuid), Option.isSome) })
    walkActions(input.actions, (action, path) => {
      if (action.type === "send_mail") references.push({ key: `${path}.automation_mail_uuid`, check: mailExists(action.automation_mail_uuid) })
      if (action.type === "condition" && (action.condition.type === "opened" || action.condition.type === "clicked")) {
        references.push({ key: `${path}.condition.automation_mail_uuid`, check: mailExists(action.condition.automation_mail_uuid) })
      }
      if (action.type === "subscribe_to_list") {
        const uuid = action.email_list_uuid
        references.push({
          key: `${path}.email_list_uuid`,
          check: Option.match(parseUuid(uuid), { onNone: () => Effect.succeed(false), onSome: (id) => Effect.map(lists.findByUuid(id as EmailListUuid), Option.isSome) })
        })
      }
    })
    for (const { check, key } of references) {
      if (!(yield* check)) problem(key, key.endsWith("automation_mail_uuid") ? "The selected automation mail is invalid." : "The selected email list is invalid.")
    }
    if (Object.keys(errors).length > 0) return yield* Effect.fail(ValidationError.fromErrors(errors))
    return { emailListId, segmentId } satisfies Audience
  })
