import type { SqlClient } from "@effect/sql"
import type { SendId } from "@mailroom/core"
import { Effect } from "effect"
import type { MailTables } from "./mailStatistics.js"

/**
 * Records a click of a campaign-shaped mail's tracked link (a campaign's, an automation mail's): counted on the send,
 * per send and link (an INSERT … ON CONFLICT, so counts stay exact) and on the link, uniquely for its first per send.
 */
export const recordLinkClick = (
  sql: SqlClient.SqlClient,
  tables: Omit<MailTables, "unsubscribes">
): (sendId: SendId, linkId: number, at: Date) => Effect.Effect<{ readonly firstForSend: boolean; readonly firstForLink: boolean }> => {
  const mail = sql.literal(tables.mailColumn)
  const clicks = sql.literal(tables.clicks)
  return (sendId, linkId, at) =>
    Effect.gen(function*() {
      const stamp = at.toISOString()
      const send = yield* sql<{ readonly clickCount: number; readonly mailId: number }>`UPDATE sends
        SET click_count = click_count + 1, first_clicked_at = COALESCE(first_clicked_at, ${stamp}), last_clicked_at = ${stamp}
        WHERE id = ${sendId} RETURNING click_count, ${mail} AS mail_id`
      const counted = yield* sql<{ readonly clickCount: number }>`INSERT INTO ${clicks}
          (${mail}, send_id, link_id, click_count, created_at, updated_at)
        VALUES (${send[0]?.mailId ?? 0}, ${sendId}, ${linkId}, 1, ${stamp}, ${stamp})
        ON CONFLICT (send_id, link_id) DO UPDATE SET click_count = ${clicks}.click_count + 1, updated_at = ${stamp}
        RETURNING click_count`
      const firstForLink = Number(counted[0]?.clickCount) === 1
      yield* sql`UPDATE ${sql.literal(tables.links)} SET click_count = click_count + 1,
        unique_click_count = unique_click_count + ${firstForLink ? 1 : 0} WHERE id = ${linkId}`
      return { firstForSend: Number(send[0]?.clickCount) === 1, firstForLink }
    }).pipe(Effect.orDie)
}
