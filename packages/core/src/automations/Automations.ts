import { Effect, Option } from "effect"
import type { Page } from "../domain/CollectionQuery.js"
import { newUuid, type SubscriberUuid } from "../domain/Ids.js"
import { subscriberStatus } from "../domain/SubscriberStatus.js"
import { ValidationError } from "../errors/ValidationError.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { SegmentRepository } from "../ports/SegmentRepository.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { findByRef, parseUuid } from "../usecases/lookup.js"
import { now } from "../usecases/now.js"
import { walkActions, withUuids } from "./actionTree.js"
import type { ActionCounts, Automation } from "./Automation.js"
import type { AutomationQuery, AutomationRunQuery } from "./AutomationCollections.js"
import { AutomationEntry } from "./AutomationEntry.js"
import type { AutomationInput, TriggerInput } from "./AutomationInput.js"
import { AutomationMailRepository } from "./AutomationMailRepository.js"
import { AutomationNotTriggerable } from "./AutomationNotTriggerable.js"
import { type AutomationChanges, AutomationRepository } from "./AutomationRepository.js"
import { AutomationRunRepository, type ListedRun } from "./AutomationRunRepository.js"
import { automationTransitions } from "./AutomationStatus.js"
import { checkAutomation } from "./automationReferences.js"
import { firstTriggerAt } from "./triggerSchedule.js"

/** An automation as the API shows it: with its list's and segment's uuids and each action's live counts. */
export interface AutomationView {
  readonly automation: Automation
  readonly emailListUuid: string | null
  readonly segmentUuid: string | null
  readonly counts: ReadonlyMap<string, ActionCounts>
}

/** What the trigger endpoint did: how many entered, and why the others did not. */
export interface TriggerResult {
  readonly queued: number
  readonly skipped: ReadonlyArray<{ readonly uuid: string; readonly reason: string }>
}

/** Automations through the API: CRUD, start and pause, the webhook trigger, and where subscribers are. */
export class Automations extends Effect.Service<Automations>()("@mailroom/Automations", {
  effect: Effect.gen(function*() {
    const repo = yield* AutomationRepository
    const runs = yield* AutomationRunRepository
    const lists = yield* EmailListRepository
    const segments = yield* SegmentRepository
    const subscribers = yield* SubscriberRepository
    const entry = yield* AutomationEntry
    const { withTransaction } = yield* Transactor
    const context = yield* Effect.context<EmailListRepository | SegmentRepository | AutomationMailRepository>()

    const find = (ref: string) => findByRef("Automation", ref, repo.findByUuid, repo.findById)

    const view = (automation: Automation) =>
      Effect.gen(function*() {
        const list = automation.emailListId === null ? Option.none() : yield* lists.findById(automation.emailListId)
        const segment = automation.segmentId === null ? Option.none() : yield* segments.findById(automation.segmentId)
        return {
          automation,
          emailListUuid: Option.getOrNull(Option.map(list, (l) => l.uuid as string)),
          segmentUuid: Option.getOrNull(Option.map(segment, (s) => s.uuid as string)),
          counts: yield* repo.actionCounts(automation.id)
        } satisfies AutomationView
      })

    /** The stored changes of an input over `current` (absent fields keep their value), checked. */
    const changesOf = (input: AutomationInput, current: AutomationView | null, at: Date) =>
      Effect.gen(function*() {
        const actions = withUuids(input.actions ?? current?.automation.actions ?? [], newUuid)
        // a list or segment not named keeps the stored one, even when it was deleted since (then nobody enters)
        const keepList = input.emailListUuid === undefined && current !== null
        const keepSegment = input.segmentUuid === undefined && current !== null
        const audience = yield* checkAutomation({
          emailListUuid: keepList ? current!.emailListUuid : input.emailListUuid ?? null,
          segmentUuid: keepSegment ? current!.segmentUuid : input.segmentUuid ?? null,
          actions: input.actions ?? []
        }).pipe(Effect.provide(context))
        const trigger = input.trigger === undefined ? current?.automation.trigger ?? null : input.trigger
        const started = current?.automation.status === "started"
        const triggerChanged = input.trigger !== undefined && JSON.stringify(trigger) !== JSON.stringify(current?.automation.trigger ?? null)
        return {
          name: input.name?.trim() ?? current?.automation.name ?? "",
          emailListId: keepList ? current!.automation.emailListId : audience.emailListId,
          segmentId: keepSegment ? current!.automation.segmentId : audience.segmentId,
          trigger,
          actions,
          repeatEnabled: input.repeatEnabled ?? current?.automation.repeatEnabled ?? false,
          repeatOnlyAfterHalt: input.repeatOnlyAfterHalt ?? current?.automation.repeatOnlyAfterHalt ?? true,
          ...(started && triggerChanged ? { triggerNextAt: firstTriggerAt(trigger, at), triggerCursor: 0 } : {}),
          updatedAt: at
        } satisfies AutomationChanges
      })

    const list = Effect.fn("Automations.list")(function*(query: AutomationQuery) {
      const page = yield* repo.list(query)
      return { items: yield* Effect.forEach(page.items, view), total: page.total } satisfies Page<AutomationView>
    })

    const get = Effect.fn("Automations.get")(function*(ref: string) {
      return yield* view(yield* find(ref))
    })

    const create = Effect.fn("Automations.create")(function*(input: AutomationInput) {
      if (input.name === undefined) return yield* Effect.fail(ValidationError.field("name", "The name field is required."))
      const at = yield* now
      const changes = yield* changesOf(input, null, at)
      const automation = yield* repo.insert({
        uuid: newUuid() as Automation["uuid"],
        name: changes.name,
        emailListId: changes.emailListId,
        segmentId: changes.segmentId,
        status: "paused",
        trigger: changes.trigger,
        actions: changes.actions,
        repeatEnabled: changes.repeatEnabled,
        repeatOnlyAfterHalt: changes.repeatOnlyAfterHalt,
        startedAt: null,
        triggerNextAt: null,
        triggerCursor: 0,
        createdAt: at,
        updatedAt: at
      })
      return yield* view(automation)
    })

    /** Changes the fields present; subscribers keep their action (by uuid), those on a removed action are halted. */
    const update = Effect.fn("Automations.update")(function*(ref: string, input: AutomationInput) {
      const current = yield* view(yield* find(ref))
      const at = yield* now
      const changes = yield* changesOf(input, current, at)
      const updated = yield* withTransaction(Effect.gen(function*() {
        const saved = yield* repo.update(current.automation.id, changes)
        if (input.actions !== undefined) {
          const keep: Array<string> = []
          walkActions(changes.actions, (action) => keep.push(action.uuid!))
          yield* runs.haltRemoved(current.automation.id, keep, at)
        }
        return saved
      }))
      return yield* view(Option.getOrElse(updated, () => current.automation))
    })

    const remove = Effect.fn("Automations.delete")(function*(ref: string) {
      const automation = yield* find(ref)
      yield* repo.delete(automation.id)
    })

    /** Starts enrolling and running subscribers; 422 without a list, a trigger or an action. */
    const start = Effect.fn("Automations.start")(function*(ref: string) {
      const found = yield* view(yield* find(ref))
      const { automation } = found
      const errors: Record<string, Array<string>> = {}
      if (automation.emailListId === null) errors["email_list_uuid"] = ["The automation needs an email list before it can start."]
      if (automation.trigger === null) errors["trigger"] = ["The automation needs a trigger before it can start."]
      if (automation.actions.length === 0) errors["actions"] = ["The automation needs at least one action before it can start."]
      if (Object.keys(errors).length > 0) return yield* Effect.fail(ValidationError.fromErrors(errors))
      yield* checkAutomation({ emailListUuid: found.emailListUuid, segmentUuid: found.segmentUuid, actions: automation.actions }).pipe(Effect.provide(context))
      if (automation.status === automationTransitions.start[automation.status]) return
      const at = yield* now
      yield* repo.update(automation.id, {
        status: automationTransitions.start[automation.status],
        startedAt: at,
        triggerNextAt: firstTriggerAt(automation.trigger, at),
        triggerCursor: 0,
        updatedAt: at
      })
    })

    /** Stops enrolling and running (subscribers stay where they are); idempotent. */
    const pause = Effect.fn("Automations.pause")(function*(ref: string) {
      const automation = yield* find(ref)
      if (automation.status === automationTransitions.pause[automation.status]) return
      yield* repo.update(automation.id, { status: automationTransitions.pause[automation.status], updatedAt: yield* now })
    })

    /** Enters the given subscribers through the webhook trigger. */
    const trigger = Effect.fn("Automations.trigger")(function*(ref: string, input: TriggerInput) {
      const automation = yield* find(ref)
      if (automation.trigger?.type !== "webhook") {
        return yield* new AutomationNotTriggerable({ message: "This automation does not have a Webhook trigger." })
      }
      const found = yield* Effect.forEach(input.subscribers, (uuid) =>
        Option.match(parseUuid(uuid), { onNone: () => Effect.succeedNone, onSome: (id) => subscribers.findByUuid(id as SubscriberUuid) }))
      const unknown = input.subscribers.flatMap((_, index) => (Option.isNone(found[index]!) ? [`subscribers.${index}`] : []))
      if (unknown.length > 0) {
        return yield* Effect.fail(ValidationError.fromErrors(Object.fromEntries(unknown.map((key) => [key, ["The selected subscriber is invalid."]]))))
      }
      const skipped: Array<{ uuid: string; reason: string }> = []
      const named = new Set<number>()
      const candidates = found.flatMap((option) => {
        const subscriber = Option.getOrThrow(option)
        const reason = named.has(subscriber.id)
          ? "The subscriber is named more than once in this call."
          : automation.status !== "started"
          ? "The automation is not started."
          : subscriber.emailListId !== automation.emailListId
          ? "The subscriber is not on the automation's email list."
          : subscriberStatus(subscriber) !== "subscribed"
          ? "The subscriber is not subscribed."
          : null
        named.add(subscriber.id)
        if (reason !== null) skipped.push({ uuid: subscriber.uuid, reason })
        return reason === null ? [subscriber] : []
      })
      const at = yield* now
      const entered = new Set<number>(yield* withTransaction(entry.enter(automation, candidates.map((s) => s.id), at)))
      for (const subscriber of candidates) {
        if (!entered.has(subscriber.id)) {
          skipped.push({ uuid: subscriber.uuid, reason: automation.segmentId === null ? "The subscriber is already in the automation or went through it." : "The subscriber is not in the automation's segment, or is already in the automation or went through it." })
        }
      }
      return { queued: entered.size, skipped } satisfies TriggerResult
    })

    /** Where each subscriber is in the automation. */
    const subscribersOf = Effect.fn("Automations.subscribers")(function*(ref: string, query: AutomationRunQuery) {
      const automation = yield* find(ref)
      return yield* runs.list(automation.id, query) as Effect.Effect<Page<ListedRun>>
    })

    return { list, get, create, update, delete: remove, start, pause, trigger, subscribers: subscribersOf } as const
  })
}) {}
