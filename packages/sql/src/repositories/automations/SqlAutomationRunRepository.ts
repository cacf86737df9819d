import { SqlClient, type Statement } from "@effect/sql"
import {
  type AutomationRunId,
  AutomationRunRepository,
  type ClaimedRun,
  type EntryRule,
  type ListedRun,
  type RunChange,
  type SubscriberFacts
} from "@mailroom/core"
import { Effect, Layer } from "effect"
import { selectRows } from "../../selectPage.js"
import { segmentCondition } from "../../subscriberConditions.js"

/** A claimed row as the driver returns it. */
interface ClaimedRow {
  readonly id: number
  readonly runId: number | null
  readonly automationId: number
  readonly subscriberId: number
  readonly actionUuid: string
  readonly enteredAt: string
  readonly arrivedAt: string
}

const parseAttributes = (text: unknown): Record<string, unknown> => {
  if (typeof text !== "string") return (text ?? {}) as Record<string, unknown>
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "object" && value !== null ? value as Record<string, unknown> : {}
  } catch {
    return {}
  }
}

/** Groups items by a key, keeping each group's items in order. */
const groupBy = <A>(items: ReadonlyArray<A>, key: (item: A) => string): Map<string, Array<A>> => {
  const groups = new Map<string, Array<A>>()
  for (const item of items) {
    const k = key(item)
    const group = groups.get(k)
    if (group === undefined) groups.set(k, [item])
    else group.push(item)
  }
  return groups
}

/** AutomationRunRepository over SqlClient: set-based entry, SKIP LOCKED claims on Postgres, grouped step writes. */
export const SqlAutomationRunRepository = Layer.effect(
  AutomationRunRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const pg = sql.onDialectOrElse({ pg: () => true, orElse: () => false })

    /**
     * Postgres plans the scheduler's claim from table statistics: positions that grow from nothing to a million faster
     * than autovacuum analyzes them (or with autovacuum off) get a claim that reads them all (11 ms at 1.1 M without
     * statistics, 0.5 ms with). The table is analyzed whenever this process has entered twice as many positions as at
     * the last time. SQLite's planner walks the due index without statistics.
     */
    let entered = 0
    let analyzeAt = 1_000
    const counted = (inserted: number) =>
      Effect.suspend(() => {
        entered += inserted
        if (!pg || entered < analyzeAt) return Effect.void
        analyzeAt = entered * 2
        return Effect.asVoid(sql`ANALYZE automation_runs`)
      })

    /** The entry rule over `subscribers` rows, for one automation. */
    const ruleCondition = (automationId: number, rule: EntryRule): Statement.Fragment => {
      const earlier = (extra: Statement.Fragment) =>
        sql`NOT EXISTS (SELECT 1 FROM automation_runs r WHERE r.automation_id = ${automationId} AND r.subscriber_id = subscribers.id AND ${extra})`
      switch (rule._tag) {
        case "once":
          return earlier(sql`1 = 1`)
        case "afterHalt":
          return earlier(sql`r.state <> 'halted'`)
        case "again":
          return earlier(sql`r.state = 'active'`)
        case "occurrence":
          return earlier(sql`(r.state = 'active' OR r.entered_at >= ${rule.since.toISOString()})`)
      }
    }

    /** Inserts positions for the subscribers matching `scope` that the audience and the rule allow; their ids. */
    const insertEntries = (entry: Parameters<AutomationRunRepository["Type"]["enterSubscribers"]>[0], scope: Statement.Fragment) => {
      const at = entry.at.toISOString()
      const audience = entry.segment === null ? sql`status = 'subscribed'` : segmentCondition(sql, entry.segment)
      return sql<{ readonly subscriberId: number }>`INSERT INTO automation_runs
        (automation_id, subscriber_id, run_id, action_uuid, state, entered_at, arrived_at, next_run_at, updated_at)
        SELECT ${entry.automationId}, id, NULL, ${entry.actionUuid}, 'active', ${at}, ${at}, ${entry.nextRunAt.toISOString()}, ${at}
        FROM subscribers WHERE ${scope} AND email_list_id = ${entry.emailListId} AND ${audience} AND ${ruleCondition(entry.automationId, entry.rule)}
        ON CONFLICT DO NOTHING RETURNING subscriber_id`
    }

    const changes = (list: ReadonlyArray<RunChange>, at: string) =>
      Effect.gen(function*() {
        const ids = (group: ReadonlyArray<RunChange>) => sql.in(group.map((change) => change.id))
        for (const group of groupBy(list.filter((c) => c._tag === "Move"), (c) => c._tag === "Move" ? `${c.actionUuid}|${c.nextRunAt.toISOString()}` : "").values()) {
          const first = group[0] as Extract<RunChange, { _tag: "Move" }>
          yield* sql`UPDATE automation_runs SET action_uuid = ${first.actionUuid}, arrived_at = ${at}, next_run_at = ${first.nextRunAt.toISOString()},
            lease_owner = NULL, updated_at = ${at} WHERE id IN ${ids(group)}`
        }
        for (const group of groupBy(list.filter((c) => c._tag === "Recheck"), (c) => c._tag === "Recheck" ? c.nextRunAt.toISOString() : "").values()) {
          const first = group[0] as Extract<RunChange, { _tag: "Recheck" }>
          yield* sql`UPDATE automation_runs SET next_run_at = ${first.nextRunAt.toISOString()}, lease_owner = NULL, updated_at = ${at} WHERE id IN ${ids(group)}`
        }
        const completed = list.filter((c) => c._tag === "Complete")
        if (completed.length > 0) {
          yield* sql`UPDATE automation_runs SET state = 'completed', next_run_at = NULL, lease_owner = NULL, updated_at = ${at} WHERE id IN ${ids(completed)}`
        }
        for (const group of groupBy(list.filter((c) => c._tag === "Halt"), (c) => c._tag === "Halt" ? `${c.actionUuid}|${c.reason}` : "").values()) {
          const first = group[0] as Extract<RunChange, { _tag: "Halt" }>
          yield* sql`UPDATE automation_runs SET state = 'halted', action_uuid = ${first.actionUuid}, halted_reason = ${first.reason},
            next_run_at = NULL, lease_owner = NULL, updated_at = ${at} WHERE id IN ${ids(group)}`
        }
      })

    return AutomationRunRepository.of({
      enterSubscribers: (entry, subscriberIds) =>
        subscriberIds.length === 0
          ? Effect.succeed([])
          : insertEntries(entry, sql`id IN ${sql.in(subscriberIds)}`).pipe(
            Effect.tap((rows) => counted(rows.length)),
            Effect.map((rows) => rows.map((row) => row.subscriberId as never)),
            Effect.orDie
          ),
      enterMembers: (entry, afterSubscriberId, limit) =>
        Effect.gen(function*() {
          const [window] = yield* sql<{ readonly covered: number; readonly last: number | null }>`
            SELECT CAST(count(*) AS INTEGER) AS covered, max(id) AS last FROM (
              SELECT id FROM subscribers WHERE email_list_id = ${entry.emailListId} AND id > ${afterSubscriberId} ORDER BY id LIMIT ${limit}
            ) batch`
          const covered = Number(window?.covered ?? 0)
          if (covered === 0) return { covered: 0, lastSubscriberId: afterSubscriberId }
          const last = Number(window!.last)
          yield* counted((yield* insertEntries(entry, sql`id > ${afterSubscriberId} AND id <= ${last}`)).length)
          return { covered, lastSubscriberId: last }
        }).pipe(Effect.orDie),
      memberAttributes: (options) =>
        sql<{ readonly id: number; readonly extraAttributes: unknown }>`SELECT id, extra_attributes FROM subscribers
          WHERE email_list_id = ${options.emailListId} AND id > ${options.afterSubscriberId} ORDER BY id LIMIT ${options.limit}`.pipe(
          Effect.map((rows) => rows.map((row) => ({ id: row.id as never, value: parseAttributes(row.extraAttributes)[options.attribute] }))),
          Effect.orDie
        ),
      claim: (options) => {
        // the automation's status as a correlated filter: the planner walks the due index whatever its statistics say (a
        // join let an unanalyzed Postgres read every waiting position through another index: 221 ms at 1.1 M)
        const skipLocked = sql.literal(pg ? "FOR UPDATE OF r SKIP LOCKED" : "")
        const claim = sql<ClaimedRow>`UPDATE automation_runs SET lease_owner = ${options.owner}, next_run_at = ${options.leaseUntil.toISOString()}
          WHERE id IN (
            SELECT r.id FROM automation_runs r
            WHERE r.state = 'active' AND r.next_run_at <= ${options.now.toISOString()}
              AND (SELECT a.status FROM automations a WHERE a.id = r.automation_id) = 'started'
            ORDER BY r.next_run_at, r.id LIMIT ${options.limit} ${skipLocked}
          ) RETURNING id, run_id, automation_id, subscriber_id, action_uuid, entered_at, arrived_at`
        // statistics older than the table's growth inflate the plan's cost past jit_above_cost: Postgres then spends
        // ~140 ms compiling a query that reads 3 buffers, on every tick
        return (pg ? sql.withTransaction(Effect.zipRight(sql`SET LOCAL jit = off`, claim)) : claim).pipe(
          Effect.map((rows) =>
            rows.map((row): ClaimedRun => ({
              id: row.id as AutomationRunId,
              runId: row.runId ?? row.id,
              automationId: row.automationId as never,
              subscriberId: row.subscriberId as never,
              actionUuid: row.actionUuid,
              enteredAt: new Date(row.enteredAt),
              arrivedAt: new Date(row.arrivedAt)
            })).sort((a, b) => a.id - b.id)
          ),
          Effect.orDie
        )
      },
      hold: (ids, owner) =>
        ids.length === 0
          ? Effect.succeed(new Set<number>())
          : sql<{ readonly id: number }>`SELECT id FROM automation_runs WHERE id IN ${sql.in(ids)} AND lease_owner = ${owner} AND state = 'active'
              ${sql.literal(pg ? "FOR UPDATE" : "")}`.pipe(Effect.map((rows) => new Set(rows.map((row) => row.id))), Effect.orDie),
      apply: (list, forks, at) =>
        Effect.gen(function*() {
          const when = at.toISOString()
          yield* changes(list, when)
          if (forks.length > 0) {
            yield* sql`INSERT INTO automation_runs ${sql.insert(forks.map((fork) => ({
              automationId: fork.automationId,
              subscriberId: fork.subscriberId,
              runId: fork.runId,
              actionUuid: fork.actionUuid,
              state: "active",
              enteredAt: fork.enteredAt.toISOString(),
              arrivedAt: when,
              nextRunAt: fork.nextRunAt.toISOString(),
              updatedAt: when
            })))}`
          }
        }).pipe(Effect.orDie),
      facts: (subscriberIds) =>
        subscriberIds.length === 0 ? Effect.succeed([]) : Effect.gen(function*() {
          const rows = yield* sql<{ readonly id: number; readonly uuid: string; readonly email: string; readonly emailListId: number; readonly status: string; readonly extraAttributes: unknown }>`
            SELECT id, uuid, email, email_list_id, status, extra_attributes FROM subscribers WHERE id IN ${sql.in(subscriberIds)}`
          const tags = yield* sql<{ readonly subscriberId: number; readonly id: number; readonly name: string }>`
            SELECT st.subscriber_id, t.id, t.name FROM subscriber_tags st JOIN tags t ON t.id = st.tag_id WHERE st.subscriber_id IN ${sql.in(subscriberIds)}`
          const bySubscriber = groupBy(tags, (tag) => String(tag.subscriberId))
          return rows.map((row): SubscriberFacts => {
            const own = bySubscriber.get(String(row.id)) ?? []
            return {
              id: row.id as never,
              uuid: row.uuid,
              email: row.email,
              emailListId: row.emailListId as never,
              subscribed: row.status === "subscribed",
              extraAttributes: parseAttributes(row.extraAttributes),
              tagIds: own.map((tag) => tag.id),
              tagNames: own.map((tag) => tag.name)
            }
          })
        }).pipe(Effect.orDie),
      engaged: (kind, questions) =>
        Effect.gen(function*() {
          const yes = new Set<number>()
          const known = questions.filter((q) => q.mailId > 0)
          if (known.length === 0) return yes
          const rows = yield* sql<{ readonly id: number; readonly automationRunId: number; readonly automationMailId: number; readonly openCount: number; readonly clickCount: number }>`
            SELECT id, automation_run_id, automation_mail_id, open_count, click_count FROM sends
            WHERE automation_run_id IN ${sql.in([...new Set(known.map((q) => q.runId))])} AND automation_mail_id IS NOT NULL`
          const sends = new Map(rows.map((row) => [`${row.automationRunId}:${row.automationMailId}`, row]))
          const urlClicks = new Set<string>()
          const withUrl = known.filter((q) => q.url !== null)
          if (kind === "clicked" && withUrl.length > 0) {
            const clicked = yield* sql<{ readonly sendId: number; readonly url: string }>`
              SELECT c.send_id, l.url FROM automation_mail_clicks c JOIN automation_mail_links l ON l.id = c.link_id
              WHERE c.send_id IN ${sql.in(rows.length === 0 ? [0] : rows.map((row) => row.id))}`
            for (const row of clicked) urlClicks.add(`${row.sendId} ${row.url}`)
          }
          questions.forEach((q, index) => {
            const send = sends.get(`${q.runId}:${q.mailId}`)
            if (send === undefined) return
            const hit = kind === "opened" ? send.openCount > 0 : q.url === null ? send.clickCount > 0 : urlClicks.has(`${send.id} ${q.url}`)
            if (hit) yes.add(index)
          })
          return yes
        }).pipe(Effect.orDie),
      haltRemoved: (automationId, keep, at) =>
        sql<{ readonly id: number }>`UPDATE automation_runs SET state = 'halted', halted_reason = 'Its action was removed from the automation.',
          next_run_at = NULL, lease_owner = NULL, updated_at = ${at.toISOString()}
          WHERE automation_id = ${automationId} AND state = 'active' ${keep.length === 0 ? sql`` : sql`AND action_uuid NOT IN ${sql.in(keep)}`}
          RETURNING id`.pipe(Effect.map((rows) => rows.length), Effect.orDie),
      list: (automationId, query) =>
        Effect.gen(function*() {
          const conditions: Array<Statement.Fragment> = [sql`automation_id = ${automationId}`]
          const { action_uuid: action, state, subscriber_uuid: subscriber } = query.filters
          if (state !== undefined) conditions.push(sql`state = ${state.trim()}`)
          if (action !== undefined) conditions.push(sql`action_uuid = ${action.trim()}`)
          if (subscriber !== undefined) conditions.push(sql`subscriber_uuid = ${subscriber.trim()}`)
          const direction = query.sort[0]?.direction === "desc" ? "DESC" : "ASC"
          const { rows, total } = yield* selectRows(
            sql,
            sql`(SELECT r.*, s.uuid AS subscriber_uuid FROM automation_runs r LEFT JOIN subscribers s ON s.id = r.subscriber_id) positions`,
            conditions,
            `entered_at ${direction}, id ${direction}`,
            query
          )
          return {
            items: (rows as ReadonlyArray<{ readonly subscriberUuid: string | null; readonly actionUuid: string | null; readonly state: ListedRun["state"]; readonly enteredAt: string; readonly nextRunAt: string | null }>)
              .map((row): ListedRun => ({
                subscriberUuid: row.subscriberUuid,
                actionUuid: row.actionUuid,
                state: row.state,
                enteredAt: new Date(row.enteredAt),
                nextRunAt: row.nextRunAt === null ? null : new Date(row.nextRunAt)
              })),
            total
          }
        }).pipe(Effect.orDie)
    })
  })
)
