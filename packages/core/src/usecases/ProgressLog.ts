import { Clock, Effect } from "effect"

/** How a run's counts are named in its log lines: the run's id key, what went through and what failed. */
export interface ProgressNames {
  /** Annotation naming the run (`campaign`, `import`). */
  readonly key: string
  /** Annotation of the items that went through (`sent`, `rows`). */
  readonly done: string
  /** Annotation of the items that failed (`failed`, `errors`). */
  readonly failed: string
}

/** A run's totals in this process: items through and failed, and the items per second over the period a line covers. */
export interface ProgressTotals {
  readonly done: number
  readonly failed: number
  readonly rate: number
  readonly seconds: number
}

/** Start, progress and end lines of long-running work (a campaign's delivery, a subscriber import). */
export interface ProgressLog {
  /** Logs the start of run `id` and starts counting it. */
  readonly start: (id: string, message: string, extra?: Record<string, unknown>) => Effect.Effect<void>
  /**
   * Adds to run `id`; logs a line (totals, rate since the last line) when it made progress and `everyMillis` have
   * passed since the last one.
   */
  readonly add: (
    id: string,
    done: number,
    failed: number,
    message: (totals: ProgressTotals) => string,
    extra?: Record<string, unknown>
  ) => Effect.Effect<void>
  /** Logs the end of run `id` (totals in this process, average rate since its start) and forgets it. */
  readonly end: (id: string, message: (totals: ProgressTotals) => string, extra?: Record<string, unknown>) => Effect.Effect<void>
  /** Forgets run `id` without a line (it stopped: paused, cancelled, lost to another worker). */
  readonly forget: (id: string) => void
  /** Runs being counted. */
  readonly ids: () => ReadonlyArray<string>
}

interface Run {
  readonly startedAt: number
  loggedAt: number
  done: number
  failed: number
  /** Totals at the last line, for the rate over the next period. */
  doneAtLine: number
  failedAtLine: number
}

const round = (n: number) => Math.round(n * 10) / 10

/**
 * A ProgressLog whose lines (info) carry the run's id, its totals in this process and `rate` (items per second) as
 * annotations, so JSON logs can be filtered by run and graphed; a run this process did not see start is counted from
 * its first progress.
 */
export const makeProgressLog = (names: ProgressNames, everyMillis: number): ProgressLog => {
  const runs = new Map<string, Run>()
  const line = (id: string, message: string, totals: ProgressTotals, extra: Record<string, unknown> = {}) =>
    Effect.annotateLogs(Effect.logInfo(message), {
      [names.key]: id,
      [names.done]: totals.done,
      [names.failed]: totals.failed,
      rate: totals.rate,
      ...extra
    })
  const runOf = (id: string, at: number): Run => {
    let run = runs.get(id)
    if (run === undefined) {
      run = { startedAt: at, loggedAt: at, done: 0, failed: 0, doneAtLine: 0, failedAtLine: 0 }
      runs.set(id, run)
    }
    return run
  }
  return {
    start: (id, message, extra) =>
      Effect.flatMap(Clock.currentTimeMillis, (at) => {
        runs.delete(id)
        runOf(id, at)
        return line(id, message, { done: 0, failed: 0, rate: 0, seconds: 0 }, extra)
      }),
    add: (id, done, failed, message, extra) =>
      Effect.flatMap(Clock.currentTimeMillis, (at) => {
        const run = runOf(id, at)
        run.done += done
        run.failed += failed
        const seconds = (at - run.loggedAt) / 1000
        const progressed = run.done !== run.doneAtLine || run.failed !== run.failedAtLine
        if (!progressed || at - run.loggedAt < everyMillis || seconds <= 0) return Effect.void
        const rate = round((run.done - run.doneAtLine + run.failed - run.failedAtLine) / seconds)
        run.loggedAt = at
        run.doneAtLine = run.done
        run.failedAtLine = run.failed
        const totals = { done: run.done, failed: run.failed, rate, seconds: round((at - run.startedAt) / 1000) }
        return line(id, message(totals), totals, extra)
      }),
    end: (id, message, extra) =>
      Effect.flatMap(Clock.currentTimeMillis, (at) => {
        const run = runOf(id, at)
        runs.delete(id)
        const seconds = (at - run.startedAt) / 1000
        const rate = seconds > 0 ? round((run.done + run.failed) / seconds) : 0
        const totals = { done: run.done, failed: run.failed, rate, seconds: round(seconds) }
        return line(id, message(totals), totals, extra)
      }),
    forget: (id) => void runs.delete(id),
    ids: () => [...runs.keys()]
  }
}
