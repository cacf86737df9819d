import type { SubscriberStatus } from "@mailroom/core"

/** The email_lists column counting subscribers of each status. */
export const statusCounter: Record<SubscriberStatus, string> = {
  subscribed: "active_subscribers_count",
  unconfirmed: "unconfirmed_count",
  unsubscribed: "unsubscribed_count"
}

/** The lower-cased text `filter[search]` matches: address and names (lower-cased here, as SQLite folds only ASCII). */
export const searchKey = (email: string, firstName: string | null, lastName: string | null): string =>
  (email + (firstName === null ? "" : "\n" + firstName) + (lastName === null ? "" : "\n" + lastName)).toLowerCase()
