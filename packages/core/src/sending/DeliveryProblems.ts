import { Clock, Effect } from "effect"
import type { MailFailure } from "../ports/Mailer.js"

/** How often each kind of transport problem may be logged. */
const EVERY_MS = 10_000

const describe: Record<MailFailure, string> = {
  temporary: "temporary failures (retried later)",
  permanent: "permanent refusals (not retried)",
  unknown: "mails whose outcome is unknown: the connection was lost after the hand-over (counted as sent, never re-sent)"
}

/** Counts of transport problems by kind since the process started. */
export type ProblemCounts = Readonly<Record<MailFailure, number>>

/** A rate-limited log of transport problems: each kind is logged at once, then at most every 10 s with the count. */
export interface DeliveryProblems {
  /** Notes one problem of a mail of `source` (e.g. `campaign <uuid>`). */
  readonly note: (source: string, failure: MailFailure, message: string) => Effect.Effect<void>
  /** Totals since the process started. */
  readonly totals: () => ProblemCounts
}

/** A DeliveryProblems log for one worker. */
export const makeDeliveryProblems = (): DeliveryProblems => {
  const totals = { temporary: 0, permanent: 0, unknown: 0 }
  const unlogged = { temporary: 0, permanent: 0, unknown: 0 }
  const loggedAt = { temporary: -Infinity, permanent: -Infinity, unknown: -Infinity }
  return {
    note: (source, failure, message) =>
      Effect.flatMap(Clock.currentTimeMillis, (at) => {
        totals[failure]++
        unlogged[failure]++
        if (at - loggedAt[failure] < EVERY_MS) return Effect.void
        const count = unlogged[failure]
        const since = loggedAt[failure]
        unlogged[failure] = 0
        loggedAt[failure] = at
        const span = since === -Infinity ? "" : ` in the last ${Math.round((at - since) / 1000)} s`
        const line = `SMTP: ${count} ${describe[failure]}${span}; last, ${source}: ${message}`
        return Effect.logWarning(line)
      }),
    totals: () => ({ ...totals })
  }
}
