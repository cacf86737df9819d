import { basisPoints } from "@mailroom/core"
import { Schema } from "effect"

/** The statistics of a campaign-shaped mail (a campaign, an automation mail): counts as strings, rates in basis points. */
export const MailStatisticsFields = {
  open_count: Schema.String,
  unique_open_count: Schema.String,
  open_rate: Schema.Number,
  click_count: Schema.String,
  unique_click_count: Schema.String,
  click_rate: Schema.Number,
  unsubscribe_count: Schema.String,
  unsubscribe_rate: Schema.String,
  bounce_count: Schema.String,
  bounce_rate: Schema.String
}

/** The counters a mail's statistics are rendered from. */
export interface MailCounters {
  readonly sentToNumberOfSubscribers: number
  readonly openCount: number
  readonly uniqueOpenCount: number
  readonly clickCount: number
  readonly uniqueClickCount: number
  readonly unsubscribeCount: number
  readonly bounceCount: number
}

/** Renders a mail's statistics (rates against the subscribers it was sent to). */
export const mailStatistics = (mail: MailCounters): Schema.Struct.Type<typeof MailStatisticsFields> => {
  const sent = mail.sentToNumberOfSubscribers
  return {
    open_count: String(mail.openCount),
    unique_open_count: String(mail.uniqueOpenCount),
    open_rate: basisPoints(mail.uniqueOpenCount, sent),
    click_count: String(mail.clickCount),
    unique_click_count: String(mail.uniqueClickCount),
    click_rate: basisPoints(mail.uniqueClickCount, sent),
    unsubscribe_count: String(mail.unsubscribeCount),
    unsubscribe_rate: String(basisPoints(mail.unsubscribeCount, sent)),
    bounce_count: String(mail.bounceCount),
    bounce_rate: String(basisPoints(mail.bounceCount, sent))
  }
}
