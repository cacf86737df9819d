import { Clock, Deferred, Duration, Effect, Fiber, FiberId, Option } from "effect"

/** What the pump needs: how to claim, deliver, record, renew and give back work, and when to stop. */
export interface PumpOptions<A, B> {
  /** Most items between the start of their delivery and the end of the write that records them. */
  readonly concurrency: number
  /** Most claimed items waiting to be delivered; a claim asks for the room left. */
  readonly batchSize: number
  /** Up to `room` more items, or none when there is no more work (or the work should stop). */
  readonly claim: (room: number) => Effect.Effect<Option.Option<ReadonlyArray<A>>>
  readonly deliver: (item: A) => Effect.Effect<B>
  /** Writes a group of outcomes; the pump waits for it (it should retry what can be retried itself). */
  readonly record: (outcomes: ReadonlyArray<B>) => Effect.Effect<void>
  /** Longest the writer waits for outcomes of half the workers before it writes a smaller group (0: write at once). */
  readonly recordLinger: Duration.DurationInput
  /** Extends the leases of the items held (waiting, in flight or not yet recorded); run every `renewEvery`. */
  readonly renew: (items: ReadonlyArray<A>) => Effect.Effect<void>
  readonly renewEvery: Duration.DurationInput
  /** Gives back claimed items that will not be delivered (the pump stopped before them). */
  readonly release: (items: ReadonlyArray<A>) => Effect.Effect<void>
  /** Checked before every item: true stops the pump (no new item starts; the waiting ones are released). */
  readonly stopped: () => boolean
  /** Polled every `watchEvery`: true stops the pump like `stopped` (e.g. the campaign was paused elsewhere). */
  readonly watch: Effect.Effect<boolean>
  readonly watchEvery: Duration.DurationInput
}

/** What a pump run did: the outcomes it recorded, and whether a claim found no more work. */
export interface PumpResult {
  readonly recorded: number
  readonly exhausted: boolean
}

/** A promise of the effect world, made and kept outside any fiber. */
const gate = () => Deferred.unsafeMake<void>(FiberId.none)
const open = (deferred: Deferred.Deferred<void>) => Deferred.unsafeDone(deferred, Effect.void)

/** A wake-up call: `wait` waits for the next `fire` (any number of fibers may wait; each re-checks its condition). */
class Signal {
  private deferred = gate()
  private fired = false
  wait(): Effect.Effect<void> {
    if (this.fired) {
      this.deferred = gate()
      this.fired = false
    }
    return Deferred.await(this.deferred)
  }
  fire(): void {
    if (this.fired) return
    this.fired = true
    open(this.deferred)
  }
}

/**
 * Delivers claimed items with `concurrency` long-lived worker fibers (none is started per item: Effect.forEach forks
 * one each and Stream.mapEffect costs several hundred µs per element in Effect 3.22), one feeder that claims (one claim
 * at a time, never more than `batchSize` waiting), one writer that records outcomes in groups (group commit: every
 * outcome that arrived during a write goes in the next one) and one keeper that renews leases and watches for a stop.
 *
 * A worker takes the next item only after the outcome of its previous one is recorded, so at any moment at most
 * `concurrency` items have been handed over without their outcome being stored: a crash mails at most that many
 * twice. At most `batchSize + concurrency` items are held. When the pump stops (a stop, no more work, or
 * interruption) the waiting items are released at once, the claim under way is awaited and its items released too,
 * and every delivered outcome is recorded before it returns.
 */
export const pump = <A, B>(options: PumpOptions<A, B>): Effect.Effect<PumpResult> =>
  Effect.suspend(() => {
    let queue: Array<A> = []
    let head = 0
    let exhausted = false
    let stopping = false
    let recorded = 0
    /** Items handed to `deliver` whose outcome is not recorded yet. */
    const unrecorded = new Set<A>()
    /** Outcomes waiting for the writer, with the gate their workers wait on. */
    let group: { outcomes: Array<B>; items: Array<A>; written: Deferred.Deferred<void> } = {
      outcomes: [],
      items: [],
      written: gate()
    }
    /** Items arrived, no more work comes, or the pump stops (workers wait for it when the queue is empty). */
    const refilled = new Signal()
    /** A worker took an item and there is room for a claim, or the pump stops (the feeder waits for it). */
    const wanted = new Signal()
    /** An outcome waits for the writer, or the last worker is done. */
    const pending = new Signal()
    let workersLeft = Math.max(1, options.concurrency)
    const linger = Duration.toMillis(options.recordLinger)

    const waiting = () => queue.length - head
    const wake = () => {
      refilled.fire()
      wanted.fire()
    }
    /** Takes the waiting items out of the queue (to release them). */
    const takeWaiting = (): Array<A> => {
      const rest = queue.slice(head)
      queue = []
      head = 0
      return rest
    }
    const releaseWaiting = Effect.suspend(() => {
      const rest = takeWaiting()
      return rest.length === 0 ? Effect.void : options.release(rest)
    })
    const stop = () => {
      if (stopping) return
      stopping = true
      wake()
    }
    const halted = () => {
      if (!stopping && options.stopped()) stop()
      return stopping
    }

    const feeder = Effect.gen(function*() {
      while (!exhausted && !halted()) {
        if (waiting() * 2 > options.batchSize) {
          yield* wanted.wait()
          continue
        }
        // claimed and queued in one uninterruptible step: a claim is never lost to an interruption
        yield* Effect.uninterruptible(Effect.map(options.claim(options.batchSize - waiting()), (batch) => {
          if (Option.isNone(batch)) exhausted = true
          else {
            queue = queue.slice(head).concat(batch.value)
            head = 0
          }
        }))
        refilled.fire()
        if (halted()) yield* releaseWaiting
      }
    }).pipe(
      Effect.catchAllCause((cause) => Effect.zipRight(Effect.sync(stop), Effect.logError("Claiming deliveries failed", cause))),
      Effect.ensuring(Effect.sync(() => refilled.fire()))
    )

    const worker = Effect.gen(function*() {
      for (;;) {
        if (halted()) return yield* releaseWaiting
        if (waiting() === 0) {
          if (exhausted) return
          yield* refilled.wait()
          continue
        }
        const item = queue[head++]!
        if (waiting() * 2 <= options.batchSize) wanted.fire()
        unrecorded.add(item)
        const outcome = yield* options.deliver(item)
        const mine = group
        mine.outcomes.push(outcome)
        mine.items.push(item)
        pending.fire()
        yield* Deferred.await(mine.written)
      }
    }).pipe(Effect.ensuring(Effect.sync(() => {
      if (--workersLeft === 0) pending.fire()
    })))

    // one group at a time; a record that fails for good stops the pump (its items stay leased until the lease runs out)
    const writeGroup = Effect.suspend(() => {
      const mine = group
      group = { outcomes: [], items: [], written: gate() }
      if (mine.outcomes.length === 0) return Effect.void
      return options.record(mine.outcomes).pipe(
        Effect.tap(() =>
          Effect.sync(() => {
            recorded += mine.outcomes.length
            for (const item of mine.items) unrecorded.delete(item)
          })
        ),
        Effect.catchAllCause((cause) => Effect.zipRight(Effect.sync(stop), Effect.logError("Delivery outcomes could not be recorded", cause))),
        Effect.ensuring(Effect.sync(() => open(mine.written)))
      )
    })

    const writer = Effect.gen(function*() {
      for (;;) {
        if (group.outcomes.length > 0) {
          yield* writeGroup
          continue
        }
        if (workersLeft === 0) return
        yield* pending.wait()
        // a group of one statement per mail would cost the database more than the mails: wait up to `linger` for half
        // the workers' outcomes (the other half keep the transport busy meanwhile)
        const until = (yield* Clock.currentTimeMillis) + linger
        for (let left = linger; left > 0 && group.outcomes.length < workersLeft / 2; left = until - (yield* Clock.currentTimeMillis)) {
          yield* Effect.sleep(Math.min(1, left))
        }
      }
    })

    const keeper = Effect.gen(function*() {
      const renewEvery = Duration.toMillis(options.renewEvery)
      const watchEvery = Duration.toMillis(options.watchEvery)
      let renewed = yield* Clock.currentTimeMillis
      for (;;) {
        yield* Effect.sleep(watchEvery)
        if (!stopping && (yield* options.watch)) stop()
        const at = yield* Clock.currentTimeMillis
        if (at - renewed >= renewEvery) {
          renewed = at
          const held = [...queue.slice(head), ...unrecorded]
          if (held.length > 0) yield* options.renew(held)
        }
      }
    }).pipe(Effect.catchAllCause((cause) => Effect.logError("Renewing delivery leases failed", cause)))

    return Effect.gen(function*() {
      const feeding = yield* Effect.fork(feeder)
      const writing = yield* Effect.fork(writer)
      const keeping = yield* Effect.fork(keeper)
      yield* Effect.all(Array.from({ length: Math.max(1, options.concurrency) }, () => worker), {
        concurrency: "unbounded",
        discard: true
      }).pipe(Effect.ensuring(Effect.gen(function*() {
        stop()
        // the claim under way finishes (it is uninterruptible) and its items are released with the rest
        yield* Fiber.interrupt(feeding)
        yield* releaseWaiting
        yield* Fiber.await(writing)
        yield* writeGroup
        yield* Fiber.interrupt(keeping)
      })))
      return { recorded, exhausted }
    })
  })
