import type { SqlClient, Statement } from "@effect/sql"
import type { SegmentRule, SubscriberCriteria } from "@mailroom/core"
import { containsPattern } from "./selectPage.js"

/** How many of the tags `ids` the row's subscriber carries. */
const tagHits = (sql: SqlClient.SqlClient, ids: ReadonlyArray<number>) =>
  sql`(SELECT count(*) FROM subscriber_tags st WHERE st.subscriber_id = subscribers.id AND st.tag_id IN ${sql.in(ids)})`

/** True when the row's subscriber carries any of the tags `ids`. */
const hasAny = (sql: SqlClient.SqlClient, ids: ReadonlyArray<number>) =>
  sql`EXISTS (SELECT 1 FROM subscriber_tags st WHERE st.subscriber_id = subscribers.id AND st.tag_id IN ${sql.in(ids)})`

/** The SQL form of a segment rule over `subscribers` rows (subscribed members only). */
export const segmentCondition = (sql: SqlClient.SqlClient, rule: SegmentRule): Statement.Fragment => {
  const parts: Array<Statement.Fragment> = [sql`status = 'subscribed'`]
  if (rule.positive.length > 0) {
    parts.push(rule.allPositive ? sql`${tagHits(sql, rule.positive)} = ${rule.positive.length}` : hasAny(sql, rule.positive))
  }
  if (rule.negative.length > 0) {
    parts.push(
      rule.allNegative ? sql`${tagHits(sql, rule.negative)} < ${rule.negative.length}` : sql`NOT ${hasAny(sql, rule.negative)}`
    )
  }
  return sql.and(parts)
}

/** The WHERE conditions of subscriber criteria over the `subscribers` table. */
export const subscriberConditions = (sql: SqlClient.SqlClient, criteria: SubscriberCriteria): Statement.Fragment => {
  const parts: Array<Statement.Fragment> = [sql`email_list_id = ${criteria.emailListId}`]
  if (criteria.email !== undefined) parts.push(sql`email = ${criteria.email}`)
  if (criteria.status !== undefined) parts.push(sql`status = ${criteria.status}`)
  if (criteria.search !== undefined) {
    parts.push(sql`search_key LIKE ${containsPattern(criteria.search)} ESCAPE '\\'`)
  }
  if (criteria.tags !== undefined) {
    const { all, ids } = criteria.tags
    parts.push(all ? sql`${tagHits(sql, ids)} = ${new Set(ids).size}` : hasAny(sql, ids))
  }
  if (criteria.segment !== undefined) parts.push(segmentCondition(sql, criteria.segment))
  return sql.and(parts)
}
