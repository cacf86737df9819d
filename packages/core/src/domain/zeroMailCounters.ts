/** The counters of a campaign-shaped mail (a campaign, an automation mail) that has not gone out yet. */
export const zeroMailCounters = {
  sentToNumberOfSubscribers: 0,
  openCount: 0,
  uniqueOpenCount: 0,
  clickCount: 0,
  uniqueClickCount: 0,
  unsubscribeCount: 0,
  bounceCount: 0
} as const
