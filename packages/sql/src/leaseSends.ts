import type { SqlClient, Statement } from "@effect/sql"
import type { Effect } from "effect"

/** What every claimed send row brings back: its ids, attempts and when its temporary failures began. */
export interface LeasedSend {
  readonly id: number
  readonly uuid: string
  readonly email: string
  readonly attempts: number
  readonly deferredSince: string | null
  readonly subscriberId: number | null
  readonly campaignId: number | null
  readonly transactionalMailId: number | null
  readonly automationMailId: number | null
}

/**
 * Leases up to `limit` due, unfinished sends matching `scope` (oldest first) to `owner` until `leaseUntil`: those
 * whose lease is free or ran out and whose retry time has come. One UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP
 * LOCKED on Postgres), so several workers never lease the same send.
 */
export const leaseSends = (
  sql: SqlClient.SqlClient,
  scope: Statement.Fragment,
  options: { readonly now: Date; readonly leaseUntil: Date; readonly limit: number; readonly owner: string },
  /** A partial index of the scope's pending sends for SQLite's planner to use (it prefers `sends_sent_at` otherwise). */
  sqliteIndex?: string
): Effect.Effect<ReadonlyArray<LeasedSend>, unknown> => {
  const at = options.now.toISOString()
  const skipLocked = sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE SKIP LOCKED"), orElse: () => sql.literal("") })
  const indexed = sqliteIndex === undefined
    ? sql.literal("")
    : sql.onDialectOrElse({ sqlite: () => sql.literal(`INDEXED BY ${sqliteIndex}`), orElse: () => sql.literal("") })
  return sql<LeasedSend>`UPDATE sends SET locked_until = ${options.leaseUntil.toISOString()}, lease_owner = ${options.owner}
    WHERE id IN (
      SELECT id FROM sends ${indexed}
      WHERE ${scope} AND sent_at IS NULL AND failed_at IS NULL
        AND (locked_until IS NULL OR locked_until < ${at}) AND (retry_at IS NULL OR retry_at <= ${at})
      ORDER BY id LIMIT ${options.limit} ${skipLocked}
    ) RETURNING id, uuid, email, attempts, deferred_since, subscriber_id, campaign_id, transactional_mail_id, automation_mail_id`
}
