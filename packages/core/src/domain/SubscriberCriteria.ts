import type { CollectionQuery } from "./CollectionQuery.js"
import type { SubscriberSort } from "./Collections.js"
import type { EmailListId, TagId } from "./Ids.js"
import type { SegmentRule } from "./SegmentRule.js"
import type { SubscriberStatus } from "./SubscriberStatus.js"

/** Which subscribers of a list to select, with every reference already resolved (emails normalized, tags as ids). */
export interface SubscriberCriteria {
  readonly emailListId: EmailListId
  /** Exact address (normalized). */
  readonly email?: string
  readonly status?: SubscriberStatus
  /** Case-insensitive substring of the email, first name or last name. */
  readonly search?: string
  /** Carries any (or, with `all`, every) of these tags. */
  readonly tags?: { readonly ids: ReadonlyArray<TagId>; readonly all: boolean }
  /** Subscribed and matching a segment's rule. */
  readonly segment?: SegmentRule
}

/** One page of subscribers matching the criteria, in the query's order. */
export type SubscriberPageQuery = Omit<CollectionQuery<SubscriberSort, never>, "filters" | "includes"> & {
  readonly criteria: SubscriberCriteria
}
