import { Effect } from "effect"
import type { AutomationId, AutomationRunId } from "../../automations/AutomationIds.js"
import {
  AutomationRunRepository,
  type ClaimedRun,
  type Entry,
  type ListedRun,
  type SubscriberFacts
} from "../../automations/AutomationRunRepository.js"
import type { EmailListId, SubscriberId } from "../../domain/Ids.js"
import { matchesSegmentRule } from "../../domain/SegmentRule.js"
import type { Send } from "../../domain/Send.js"
import { subscriberStatus } from "../../domain/SubscriberStatus.js"
import { compareTagNames } from "../../domain/Tag.js"
import type { NewSubscriber } from "../../ports/SubscriberRepository.js"
import { listPage } from "./listPage.js"
import type { MemoryState } from "./MemoryState.js"

type Run = MemoryState["tables"]["automationRuns"] extends Map<number, infer R> ? R : never

/** The automation mail a send delivers, read through a field the Send gains with automation mails (null before). */
const automationMailIdOf = (send: Send): number | null =>
  (send as Send & { readonly automationMailId?: number | null }).automationMailId ?? null

/** AutomationRunRepository over the in-memory state: the same entry rules, claims and leases as the SQL stores. */
export const makeMemoryAutomationRunRepository = (state: MemoryState) => {
  const runs = () => state.tables.automationRuns
  const tagIdsOf = (id: number): ReadonlySet<number> => state.tables.subscriberTags.get(id) ?? new Set()
  const membersAbove = (emailListId: EmailListId, afterSubscriberId: number, limit: number) =>
    [...state.tables.subscribers.values()]
      .filter((subscriber) => subscriber.emailListId === emailListId && subscriber.id > afterSubscriberId)
      .sort((a, b) => a.id - b.id)
      .slice(0, limit)

  /** Whether the subscriber is in the entry's audience: subscribed, on its list, in its segment. */
  const inAudience = (entry: Entry, subscriberId: number): boolean => {
    const subscriber = state.tables.subscribers.get(subscriberId)
    return subscriber !== undefined && subscriber.emailListId === entry.emailListId && subscriberStatus(subscriber) === "subscribed" &&
      (entry.segment === null || matchesSegmentRule(entry.segment, tagIdsOf(subscriberId)))
  }

  /** Whether the entry rule lets a subscriber with these earlier positions in the automation enter. */
  const ruleAllows = (entry: Entry, earlier: ReadonlyArray<Run>): boolean => {
    const rule = entry.rule
    switch (rule._tag) {
      case "once":
        return earlier.length === 0
      case "afterHalt":
        return earlier.every((run) => run.state === "halted")
      case "again":
        return earlier.every((run) => run.state !== "active")
      case "occurrence":
        return earlier.every((run) => run.state !== "active" && run.enteredAt.getTime() < rule.since.getTime())
    }
  }

  /** Enters those of the subscribers the audience and the rule allow, all checked against the positions before. */
  const enter = (entry: Entry, subscriberIds: Iterable<number>): Array<SubscriberId> => {
    const earlier = new Map<number, Array<Run>>()
    for (const run of runs().values()) {
      if (run.automationId === entry.automationId) earlier.set(run.subscriberId, [...(earlier.get(run.subscriberId) ?? []), run])
    }
    const entering = [...new Set(subscriberIds)].filter((id) => inAudience(entry, id) && ruleAllows(entry, earlier.get(id) ?? []))
    for (const subscriberId of entering) {
      const id = state.nextId("automationRuns")
      runs().set(id, {
        id,
        automationId: entry.automationId,
        subscriberId,
        runId: null,
        actionUuid: entry.actionUuid,
        state: "active",
        enteredAt: entry.at,
        arrivedAt: entry.at,
        nextRunAt: entry.nextRunAt,
        leaseOwner: null,
        haltedReason: null,
        updatedAt: entry.at
      })
    }
    return entering as Array<SubscriberId>
  }

  const update = (id: number, changes: Partial<Run>) => {
    const run = runs().get(id)
    if (run !== undefined) runs().set(id, { ...run, ...changes })
  }

  /** What the runner needs of one stored subscriber. */
  const factsOf = (subscriber: NewSubscriber & { readonly id: number }): SubscriberFacts => {
    const tagIds = [...tagIdsOf(subscriber.id)].sort((a, b) => a - b)
    return {
      id: subscriber.id as SubscriberId,
      uuid: subscriber.uuid,
      email: subscriber.email,
      emailListId: subscriber.emailListId,
      subscribed: subscriberStatus(subscriber) === "subscribed",
      extraAttributes: subscriber.extraAttributes,
      tagIds,
      tagNames: tagIds.flatMap((id) => {
        const tag = state.tables.tags.get(id)
        return tag === undefined ? [] : [tag.name]
      }).sort(compareTagNames)
    }
  }

  return AutomationRunRepository.of({
    enterSubscribers: (entry, subscriberIds) => Effect.sync(() => enter(entry, subscriberIds)),
    enterMembers: (entry, afterSubscriberId, limit) =>
      Effect.sync(() => {
        const members = membersAbove(entry.emailListId, afterSubscriberId, limit)
        enter(entry, members.map((member) => member.id))
        return { covered: members.length, lastSubscriberId: members.at(-1)?.id ?? afterSubscriberId }
      }),
    memberAttributes: ({ afterSubscriberId, attribute, emailListId, limit }) =>
      Effect.sync(() =>
        membersAbove(emailListId, afterSubscriberId, limit).map((member) => ({
          id: member.id as SubscriberId,
          value: member.extraAttributes[attribute]
        }))
      ),
    claim: ({ leaseUntil, limit, now, owner }) =>
      Effect.sync(() => {
        const started = new Set([...state.tables.automations.values()].filter((a) => a.status === "started").map((a) => a.id as number))
        const due = [...runs().values()]
          .filter((run) => run.state === "active" && run.nextRunAt !== null && run.nextRunAt.getTime() <= now.getTime() && started.has(run.automationId))
          .sort((a, b) => a.nextRunAt!.getTime() - b.nextRunAt!.getTime() || a.id - b.id)
          .slice(0, limit)
        return due.map((run): ClaimedRun => {
          update(run.id, { leaseOwner: owner, nextRunAt: leaseUntil, updatedAt: now })
          return {
            id: run.id as AutomationRunId,
            runId: run.runId ?? run.id,
            automationId: run.automationId as AutomationId,
            subscriberId: run.subscriberId as SubscriberId,
            actionUuid: run.actionUuid,
            enteredAt: run.enteredAt,
            arrivedAt: run.arrivedAt
          }
        })
      }),
    hold: (ids, owner) =>
      Effect.sync(() => {
        const held = ids.filter((id) => {
          const run = runs().get(id)
          return run !== undefined && run.state === "active" && run.leaseOwner === owner
        })
        return new Set<number>(held)
      }),
    apply: (changes, forks, at) =>
      Effect.sync(() => {
        const freed = { leaseOwner: null, updatedAt: at }
        for (const change of changes) {
          switch (change._tag) {
            case "Move":
              update(change.id, { ...freed, actionUuid: change.actionUuid, arrivedAt: at, nextRunAt: change.nextRunAt })
              break
            case "Recheck":
              update(change.id, { ...freed, nextRunAt: change.nextRunAt })
              break
            case "Complete":
              update(change.id, { ...freed, state: "completed", nextRunAt: null })
              break
            case "Halt":
              update(change.id, { ...freed, state: "halted", actionUuid: change.actionUuid, haltedReason: change.reason, nextRunAt: null })
              break
          }
        }
        for (const fork of forks) {
          const id = state.nextId("automationRuns")
          runs().set(id, {
            id,
            automationId: fork.automationId,
            subscriberId: fork.subscriberId,
            runId: fork.runId,
            actionUuid: fork.actionUuid,
            state: "active",
            enteredAt: fork.enteredAt,
            arrivedAt: at,
            nextRunAt: fork.nextRunAt,
            leaseOwner: null,
            haltedReason: null,
            updatedAt: at
          })
        }
      }),
    facts: (subscriberIds) =>
      Effect.sync(() =>
        [...new Set(subscriberIds)].sort((a, b) => a - b).flatMap((id) => {
          const subscriber = state.tables.subscribers.get(id)
          return subscriber === undefined ? [] : [factsOf(subscriber)]
        })
      ),
    engaged: (kind, questions) =>
      Effect.sync(() => {
        const sends = new Map<string, Array<Send>>()
        for (const row of state.tables.sends.values()) {
          const mailId = automationMailIdOf(row.send)
          if (row.automationRunId === undefined || row.automationRunId === null || mailId === null) continue
          const key = `${row.automationRunId}:${mailId}`
          sends.set(key, [...(sends.get(key) ?? []), row.send])
        }
        const yes = new Set<number>()
        // a question about one link is answered by any click of the mail: this store keeps no clicks per link of automation mails
        questions.forEach((question, index) => {
          const asked = sends.get(`${question.runId}:${question.mailId}`) ?? []
          if (asked.some((send) => (kind === "opened" ? send.openCount > 0 : send.clickCount > 0))) yes.add(index)
        })
        return yes
      }),
    haltRemoved: (automationId, keep, at) =>
      Effect.sync(() => {
        const kept = new Set(keep)
        const removed = [...runs().values()].filter((run) =>
          run.automationId === automationId && run.state === "active" && !kept.has(run.actionUuid)
        )
        for (const run of removed) {
          update(run.id, { state: "halted", haltedReason: "Its action was removed from the automation.", nextRunAt: null, leaseOwner: null, updatedAt: at })
        }
        return removed.length
      }),
    list: (automationId, query) =>
      Effect.sync(() => {
        const listed = [...runs().values()].filter((run) => run.automationId === automationId).map((run) => ({
          id: run.id,
          run: {
            subscriberUuid: state.tables.subscribers.get(run.subscriberId)?.uuid ?? null,
            actionUuid: run.actionUuid,
            state: run.state,
            enteredAt: run.enteredAt,
            nextRunAt: run.nextRunAt
          } satisfies ListedRun
        }))
        const page = listPage(listed, query, {
          id: (row) => row.id,
          sorts: { entered_at: (row) => row.run.enteredAt },
          filters: {
            state: (row, value) => row.run.state === value.trim(),
            action_uuid: (row, value) => row.run.actionUuid === value.trim(),
            subscriber_uuid: (row, value) => row.run.subscriberUuid === value.trim()
          }
        })
        return { total: page.total, items: page.items.map((row) => row.run) }
      })
  })
}
