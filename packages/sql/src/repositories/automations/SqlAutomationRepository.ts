import { SqlClient } from "@effect/sql"
import { type ActionCounts, Automation, AutomationAction, AutomationRepository, AutomationTrigger } from "@mailroom/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlBoolean } from "../../columns.js"
import { containsPattern, selectPage } from "../../selectPage.js"

/** An automations row: the trigger and actions as JSON, flags as 1/0. */
const AutomationRow = Schema.Struct({
  ...Automation.fields,
  trigger: Schema.NullOr(Schema.parseJson(AutomationTrigger)),
  actions: Schema.parseJson(Schema.Array(AutomationAction)),
  repeatEnabled: SqlBoolean,
  repeatOnlyAfterHalt: SqlBoolean
})
const FromRow = Schema.transform(
  Schema.transform(Schema.Struct({ triggerSpec: Schema.NullOr(Schema.String) }, Schema.Record({ key: Schema.String, value: Schema.Unknown })), Schema.Record({ key: Schema.String, value: Schema.Unknown }), {
    strict: false,
    decode: ({ triggerSpec, ...row }) => ({ ...row, trigger: triggerSpec }),
    encode: (row) => row as never
  }).pipe(Schema.compose(AutomationRow, { strict: false })),
  Schema.typeSchema(Automation),
  { strict: false, decode: (row) => new Automation(row as never, true), encode: (automation) => automation as never }
)
const decodeRows = Schema.decodeUnknown(Schema.Array(FromRow))

/** The columns of an automation's writable fields. */
const columns = (automation: Partial<Omit<Automation, "id" | "placedActions">>) => {
  const out: Record<string, string | number | null> = {}
  const time = (date: Date | null) => date?.toISOString() ?? null
  if (automation.uuid !== undefined) out["uuid"] = automation.uuid
  if (automation.name !== undefined) out["name"] = automation.name
  if (automation.emailListId !== undefined) out["emailListId"] = automation.emailListId
  if (automation.segmentId !== undefined) out["segmentId"] = automation.segmentId
  if (automation.status !== undefined) out["status"] = automation.status
  if (automation.trigger !== undefined) out["triggerSpec"] = automation.trigger === null ? null : JSON.stringify(automation.trigger)
  if (automation.actions !== undefined) out["actions"] = JSON.stringify(automation.actions)
  if (automation.repeatEnabled !== undefined) out["repeatEnabled"] = automation.repeatEnabled ? 1 : 0
  if (automation.repeatOnlyAfterHalt !== undefined) out["repeatOnlyAfterHalt"] = automation.repeatOnlyAfterHalt ? 1 : 0
  if (automation.startedAt !== undefined) out["startedAt"] = time(automation.startedAt)
  if (automation.triggerNextAt !== undefined) out["triggerNextAt"] = time(automation.triggerNextAt)
  if (automation.triggerCursor !== undefined) out["triggerCursor"] = automation.triggerCursor
  if (automation.createdAt !== undefined) out["createdAt"] = automation.createdAt.toISOString()
  if (automation.updatedAt !== undefined) out["updatedAt"] = automation.updatedAt.toISOString()
  return out
}

/** AutomationRepository over SqlClient. */
export const SqlAutomationRepository = Layer.effect(
  AutomationRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const one = (rows: ReadonlyArray<unknown>) => Effect.map(decodeRows(rows), (found) => Option.fromNullable(found[0]))
    return AutomationRepository.of({
      insert: (automation) =>
        sql`INSERT INTO automations ${sql.insert(columns(automation))} RETURNING *`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => rows[0]!),
          Effect.orDie
        ),
      update: (id, changes) =>
        Object.keys(columns(changes)).length === 0
          ? Effect.flatMap(sql`SELECT * FROM automations WHERE id = ${id}`, one).pipe(Effect.orDie)
          : Effect.flatMap(sql`UPDATE automations SET ${sql.update(columns(changes))} WHERE id = ${id} RETURNING *`, one).pipe(Effect.orDie),
      findById: (id) => Effect.flatMap(sql`SELECT * FROM automations WHERE id = ${id}`, one).pipe(Effect.orDie),
      findByUuid: (uuid) => Effect.flatMap(sql`SELECT * FROM automations WHERE uuid = ${uuid}`, one).pipe(Effect.orDie),
      list: (query) =>
        selectPage(sql, {
          table: "automations",
          sorts: { created_at: "created_at", name: "lower(name)" },
          filters: {
            search: (value) => sql`lower(name) LIKE ${containsPattern(value)} ESCAPE '\\'`,
            status: (value) => sql`status = ${value.trim()}`
          }
        }, query, FromRow),
      delete: (id) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM automation_runs WHERE automation_id = ${id}`
          yield* sql`DELETE FROM automation_action_counts WHERE automation_id = ${id}`
          return (yield* sql`DELETE FROM automations WHERE id = ${id} RETURNING id`).length > 0
        }).pipe(Effect.orDie),
      started: Effect.flatMap(sql`SELECT * FROM automations WHERE status = 'started' ORDER BY id`, decodeRows).pipe(Effect.orDie),
      actionCounts: (id) =>
        Effect.gen(function*() {
          const counts = new Map<string, { active: number; completed: number; halted: number }>()
          const entry = (uuid: string) => {
            let found = counts.get(uuid)
            if (found === undefined) counts.set(uuid, found = { active: 0, completed: 0, halted: 0 })
            return found
          }
          const states = yield* sql<{ readonly actionUuid: string; readonly state: string; readonly total: number }>`
            SELECT action_uuid, state, CAST(count(*) AS INTEGER) AS total FROM automation_runs
            WHERE automation_id = ${id} AND state IN ('active', 'halted') AND action_uuid IS NOT NULL GROUP BY action_uuid, state`
          for (const row of states) entry(row.actionUuid)[row.state === "active" ? "active" : "halted"] = Number(row.total)
          const passes = yield* sql<{ readonly actionUuid: string; readonly completed: number }>`
            SELECT action_uuid, completed FROM automation_action_counts WHERE automation_id = ${id}`
          for (const row of passes) entry(row.actionUuid).completed = Number(row.completed)
          return counts as ReadonlyMap<string, ActionCounts>
        }).pipe(Effect.orDie),
      countPasses: (id, passes) =>
        // rows in one order (by action), as any concurrent runner of the automation takes them
        Effect.forEach([...passes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)), ([uuid, count]) =>
          sql`INSERT INTO automation_action_counts (automation_id, action_uuid, completed) VALUES (${id}, ${uuid}, ${count})
            ON CONFLICT (automation_id, action_uuid) DO UPDATE SET completed = automation_action_counts.completed + ${count}`, { discard: true }).pipe(Effect.orDie)
    })
  })
)
