/** How often a destination's connection failures may be logged. */
const EVERY_MS = 30_000

/**
 * Rate-limits the warnings of SMTP connections that could not be opened: the first failure to a destination is told at
 * once, later ones at most every 30 s per destination, with the count of failures not told in between.
 */
export class ConnectionFailureLog {
  private readonly destinations = new Map<string, { loggedAt: number; unlogged: number }>()

  constructor(private readonly everyMillis = EVERY_MS) {}

  /** The line to log for a failure to `destination` at `at` (ms), or null when it is held back. */
  note(destination: string, message: string, at: number): string | null {
    const seen = this.destinations.get(destination)
    if (seen !== undefined && at - seen.loggedAt < this.everyMillis) {
      seen.unlogged++
      return null
    }
    const held = seen === undefined || seen.unlogged === 0
      ? ""
      : ` (${seen.unlogged} more failure${seen.unlogged === 1 ? "" : "s"} in the last ${Math.round((at - seen.loggedAt) / 1000)} s not logged)`
    this.destinations.set(destination, { loggedAt: at, unlogged: 0 })
    return `SMTP connection to ${destination} failed: ${message}${held}`
  }
}
