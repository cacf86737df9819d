import { Duration, Effect, Option } from "effect"
import { entriesById } from "../domain/entriesById.js"
import { newUuid } from "../domain/Ids.js"
import { matchesSegmentRule, segmentRule, type SegmentRule } from "../domain/SegmentRule.js"
import { SegmentRepository } from "../ports/SegmentRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { now } from "../usecases/now.js"
import { pollForever, SLOWEST_IDLE_POLL } from "../usecases/pollForever.js"
import { WebhookTransport } from "../webhooks/WebhookTransport.js"
import { indexTree, type TreeNode } from "./actionTree.js"
import type { Automation } from "./Automation.js"
import type { AutomationMailUuid } from "./AutomationIds.js"
import { AutomationMailRepository } from "./AutomationMailRepository.js"
import { AutomationMailWakeup } from "./AutomationMailWakeup.js"
import { AutomationOptions } from "./AutomationOptions.js"
import { AutomationRepository } from "./AutomationRepository.js"
import { AutomationRunRepository, type ClaimedRun, type Engagement, type SubscriberFacts } from "./AutomationRunRepository.js"
import { StepEffects } from "./StepEffects.js"
import { planStep, type StepPlan } from "./stepPlan.js"

/** An automation ready to run: its tree indexed once per version, its segment's rule. */
interface Loaded {
  readonly automation: Automation
  readonly tree: ReadonlyMap<string, TreeNode>
  readonly segment: SegmentRule | null
  /** The segment is gone: nobody is in the audience any more. */
  readonly segmentGone: boolean
}

/**
 * The automation scheduler: claims due positions of started automations in batches under a lease (several workers
 * share the work; a crashed claim comes back when its lease ends), plans each step (pure), posts the webhooks of
 * webhook actions, then writes every step's moves and effects (sends, tags, unsubscribes) in one transaction, only for
 * the positions it still holds: each step is done once per subscriber and run, and a `send_mail` step's Send is
 * unique per run and mail besides.
 */
export class AutomationRunner extends Effect.Service<AutomationRunner>()("@mailroom/AutomationRunner", {
  effect: Effect.gen(function*() {
    const automations = yield* AutomationRepository
    const runs = yield* AutomationRunRepository
    const segments = yield* SegmentRepository
    const mails = yield* AutomationMailRepository
    const transport = yield* WebhookTransport
    const effects = yield* StepEffects
    const wakeup = yield* AutomationMailWakeup
    const { withTransaction } = yield* Transactor
    const options = yield* AutomationOptions
    const owner = newUuid()
    const loadedCache = new Map<number, Loaded>()

    const load = (id: Automation["id"]) =>
      Effect.gen(function*() {
        const found = yield* automations.findById(id)
        if (Option.isNone(found)) return Option.none<Loaded>()
        const automation = found.value
        const cached = loadedCache.get(id)
        if (cached !== undefined && cached.automation.updatedAt.getTime() === automation.updatedAt.getTime()) return Option.some(cached)
        const segment = automation.segmentId === null ? Option.none() : yield* segments.findById(automation.segmentId)
        const loaded: Loaded = {
          automation,
          tree: indexTree(automation.placedActions),
          segment: Option.match(segment, { onNone: () => null, onSome: segmentRule }),
          segmentGone: automation.segmentId !== null && Option.isNone(segment)
        }
        loadedCache.set(id, loaded)
        return Option.some(loaded)
      })

    /** Why a subscriber is no longer in the automation's audience, or null while it is. */
    const leftBecause = (loaded: Loaded, facts: SubscriberFacts | undefined): string | null => {
      if (facts === undefined) return "The subscriber was deleted."
      if (!facts.subscribed) return "The subscriber unsubscribed."
      if (facts.emailListId !== loaded.automation.emailListId) return "The subscriber left the automation's email list."
      if (loaded.segmentGone || (loaded.segment !== null && !matchesSegmentRule(loaded.segment, new Set(facts.tagIds)))) {
        return "The subscriber left the automation's segment."
      }
      return null
    }

    /** The answers of the opened/clicked conditions the claimed positions stand on, by position id. */
    const engagements = (claimed: ReadonlyArray<ClaimedRun>, loaded: ReadonlyMap<number, Loaded>) =>
      Effect.gen(function*() {
        const answers = new Map<number, boolean>()
        for (const kind of ["opened", "clicked"] as const) {
          const asked: Array<{ readonly run: ClaimedRun; readonly mailUuid: string; readonly url: string | null }> = []
          for (const run of claimed) {
            const action = loaded.get(run.automationId)?.tree.get(run.actionUuid)?.action
            if (action?.type !== "condition" || action.condition.type !== kind) continue
            asked.push({ run, mailUuid: action.condition.automation_mail_uuid, url: action.condition.type === "clicked" ? action.condition.url ?? null : null })
          }
          if (asked.length === 0) continue
          const ids = new Map<string, number>()
          for (const uuid of new Set(asked.map((q) => q.mailUuid))) {
            const mail = yield* mails.findByUuid(uuid as AutomationMailUuid)
            if (Option.isSome(mail)) ids.set(uuid, mail.value.id)
          }
          const questions: Array<Engagement> = asked.map((q) => ({ runId: q.run.runId, mailId: ids.get(q.mailUuid) ?? -1, url: q.url }))
          const yes = yield* runs.engaged(kind, questions)
          asked.forEach((q, index) => answers.set(q.run.id, yes.has(index)))
        }
        return answers
      })

    /** Posts the webhooks of the positions standing on a webhook action; the ids whose post was answered 2xx. */
    const postWebhooks = (claimed: ReadonlyArray<ClaimedRun>, loaded: ReadonlyMap<number, Loaded>, facts: ReadonlyMap<number, SubscriberFacts>, at: Date) =>
      Effect.gen(function*() {
        const posted = new Set<number>()
        yield* Effect.forEach(claimed, (run) => {
          const action = loaded.get(run.automationId)?.tree.get(run.actionUuid)?.action
          const subscriber = facts.get(run.subscriberId)
          if (action?.type !== "webhook" || subscriber === undefined) return Effect.void
          const body = JSON.stringify({
            type: "automation.webhook",
            timestamp: at.toISOString(),
            data: {
              automation_uuid: loaded.get(run.automationId)!.automation.uuid,
              action_uuid: action.uuid,
              subscriber: { uuid: subscriber.uuid, email: subscriber.email, email_list_id: subscriber.emailListId, extra_attributes: subscriber.extraAttributes, tags: subscriber.tagNames }
            }
          })
          return Effect.map(
            transport.post({ url: action.url, messageId: `run_${run.runId}_${action.uuid}`, timestamp: at, body, secret: action.secret }),
            (response) => {
              if (response._tag === "Answered" && response.status >= 200 && response.status < 300) posted.add(run.id)
            }
          )
        }, { concurrency: 16, discard: true })
        return posted
      })

    /** Claims and runs one batch of due positions; how many it claimed. */
    const step = Effect.fn("AutomationRunner.step")(function*() {
      const at = yield* now
      const claimed = yield* runs.claim({ now: at, leaseUntil: new Date(at.getTime() + Duration.toMillis(options.lease)), limit: options.batchSize, owner })
      if (claimed.length === 0) return 0
      const loaded = new Map<number, Loaded>()
      for (const id of new Set(claimed.map((run) => run.automationId))) {
        const found = yield* load(id)
        if (Option.isSome(found)) loaded.set(id, found.value)
      }
      const facts = new Map((yield* runs.facts([...new Set(claimed.map((run) => run.subscriberId))])).map((f) => [f.id as number, f]))
      const engaged = yield* engagements(claimed, loaded)
      const posted = yield* postWebhooks(claimed, loaded, facts, at)
      const retryForMillis = Duration.toMillis(options.webhookRetryFor)
      const plans: Array<StepPlan> = []
      for (const run of claimed) {
        const automation = loaded.get(run.automationId)
        if (automation === undefined) continue
        const subscriber = facts.get(run.subscriberId)
        const plan = planStep({
          run,
          tree: automation.tree,
          facts: subscriber,
          leftBecause: leftBecause(automation, subscriber),
          engaged: engaged.get(run.id) ?? null,
          webhookPosted: posted.has(run.id),
          now: at
        })
        const waitingWebhook = plan.change._tag === "Recheck" && automation.tree.get(run.actionUuid)?.action.type === "webhook"
        if (!waitingWebhook) plans.push(plan)
        else if (at.getTime() - run.arrivedAt.getTime() > retryForMillis) {
          plans.push({ ...plan, change: { _tag: "Halt", id: run.id, actionUuid: run.actionUuid, reason: "The webhook of the action failed for too long." } })
        } else plans.push({ ...plan, change: { _tag: "Recheck", id: run.id, nextRunAt: new Date(at.getTime() + 60_000) } })
      }
      const queued = yield* withTransaction(Effect.gen(function*() {
        const held = yield* runs.hold(plans.map((plan) => plan.change.id), owner)
        const mine = plans.filter((plan) => held.has(plan.change.id))
        const mailed = yield* effects.apply(mine.flatMap((plan) => plan.effects), at)
        yield* runs.apply(mine.map((plan) => plan.change), mine.flatMap((plan) => plan.forks), at)
        const automationOf = new Map(claimed.map((run) => [run.id as number, run.automationId]))
        const passes = new Map<number, Map<string, number>>()
        for (const plan of mine) {
          const automationId = automationOf.get(plan.change.id)!
          const counts = passes.get(automationId) ?? new Map<string, number>()
          for (const uuid of plan.passed) counts.set(uuid, (counts.get(uuid) ?? 0) + 1)
          passes.set(automationId, counts)
        }
        for (const [automationId, counts] of entriesById(passes)) {
          if (counts.size > 0) yield* automations.countPasses(automationId as Automation["id"], counts)
        }
        return mailed
      }))
      // the mails are committed: this process's automation mail delivery takes them at once
      if (queued > 0) yield* wakeup.notify
      return claimed.length
    })

    /** Runs every due step now, until none is due (tests and tools); how many positions were stepped. */
    const drain = Effect.fn("AutomationRunner.drain")(function*() {
      let total = 0
      for (let stepped = yield* step(); stepped > 0; stepped = yield* step()) total += stepped
      return total
    })

    /** Runs due steps forever (the server forks it, `mailroom worker` runs it). */
    const run = pollForever(
      "Automation scheduler",
      // after a busy step, a turn of the event loop: with a synchronous driver (SQLite) back-to-back steps would hold
      // off the process's delivery, requests and timers until every due position is done
      Effect.map(step(), (stepped) => (stepped > 0 ? Duration.zero : 0)),
      options.pollInterval,
      SLOWEST_IDLE_POLL
    )

    return { step, drain, run } as const
  })
}) {}
