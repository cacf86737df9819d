import { performance } from "node:perf_hooks"
import { Duration, Effect } from "effect"

/** What the idle collection reads and does: the event loop's busy share since the last look, and a full collection. */
export interface IdleCollector {
  /** The share of time (0 to 1) the event loop was busy since the previous call. */
  readonly busySinceLastLook: () => number
  /** A full collection of the heap; undefined when node was started without `--expose-gc`. */
  readonly collect: (() => void) | undefined
}

/**
 * When the process first looks (soon after start: start-up's garbage is the largest an idle server holds), how often
 * after that, and under which busy share it counts as idle.
 */
export const IDLE_COLLECTION = { first: Duration.seconds(10), every: Duration.seconds(30), idleBelow: 0.05 } as const

/** Node's `gc`, present when node was started with `--expose-gc`. */
const exposedGc = (): (() => void) | undefined => (globalThis as { gc?: () => void }).gc

/** Node's event-loop utilisation and its `gc`. */
export const nodeIdleCollector = (): IdleCollector => {
  let last = performance.eventLoopUtilization()
  const gc = exposedGc()
  return {
    busySinceLastLook: () => {
      const now = performance.eventLoopUtilization()
      const busy = performance.eventLoopUtilization(now, last).utilization
      last = now
      return busy
    },
    collect: gc === undefined ? undefined : () => gc()
  }
}

/** How the start-up log line names the idle collection: its period, or off when node does not expose `gc`. */
export const idleCollectionSummary = (): string =>
  exposedGc() === undefined ? "off (no --expose-gc)" : `every ${Duration.format(IDLE_COLLECTION.every)} when idle`

/**
 * 10 s after start and every 30 s after that, a full collection of the heap when the event loop was less than 5 % busy
 * since the last look (~35 ms for a 30 MB heap, nobody waiting). The start commands let the old generation grow to twice
 * what survived the last full collection, so that collections are rare under load; an idle process allocates too little
 * for V8 to collect soon, and its heap would creep up for minutes. Does nothing without `--expose-gc`.
 */
export const idleCollection = (collector: IdleCollector = nodeIdleCollector()): Effect.Effect<void> => {
  const collect = collector.collect
  if (collect === undefined) return Effect.void
  const look = Effect.sync(() => {
    if (collector.busySinceLastLook() < IDLE_COLLECTION.idleBelow) collect()
  })
  return Effect.sleep(IDLE_COLLECTION.first).pipe(
    Effect.zipRight(look),
    Effect.zipRight(Effect.forever(Effect.zipRight(Effect.sleep(IDLE_COLLECTION.every), look)))
  )
}
