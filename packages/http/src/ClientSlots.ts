import { Effect } from "effect"
import { afterIo } from "./afterIo.js"

/** How many times `limit` requests of one client may start in one turn of the event loop. */
const TURN_BUDGET = 4

interface Ticket {
  granted: boolean
  /** Its slot given back (or its place in line left): a ticket leaves once. */
  left: boolean
  wake: (() => void) | undefined
}

/**
 * At most `limit` effects of one client run at once, and at most `TURN_BUDGET × limit` start in one turn of the event
 * loop; the others wait in arrival order. A slot is handed from the effect that ends to the next in line (at the next
 * turn when this one's budget is spent), and whatever ends an effect (success, failure, or the client going away
 * while it waits or runs) gives its slot back, so slots are never lost.
 *
 * The turn budget matters on SQLite: its queries are synchronous, so a request usually runs from start to end without
 * yielding and the `limit` of requests at once is never reached. Without the budget, the hundreds of requests a busy
 * client has read in one poll of the event loop all ran before the loop polled again, and another client's new
 * connection was not even accepted for seconds (bench/api/fairness.ts: 1 request in 10 s). With it, the loop polls
 * after every `TURN_BUDGET × limit` requests of each client (4 × 2 on SQLite: the second client's p99 72-80 ms, and
 * one client alone loses nothing: a budget of 1 × limit cost it up to 16 % of its rate).
 *
 * Written for Mailroom rather than taken from Effect's Semaphore: the platform runs middleware uninterruptibly and
 * `withPermits` waits with its caller's interruptibility, so a request whose client had left stayed in line until its
 * turn came. Here the wait is interruptible, and its finaliser is in place before it waits, so a slot handed to a
 * waiter that is being interrupted goes on to the next in line instead of being lost.
 */
export class ClientSlots {
  private active = 0
  private startedThisTurn = 0
  private turnScheduled = false
  private readonly queue: Array<Ticket> = []

  constructor(private readonly limit: number) {}

  /**
   * Runs `effect` in a slot, waiting for one first when all are taken or this turn's are used up. `whenLeaving` (e.g.
   * `onClientLeaving` on the request's connection) is handed the ticket's release and returns its own stop: the slot is
   * then given back as soon as the client leaves, even if `effect` goes on running.
   */
  run<A, E, R>(effect: Effect.Effect<A, E, R>, whenLeaving?: (leave: () => void) => () => void): Effect.Effect<A, E, R> {
    // uninterruptible until the finaliser is in place, so no interruption can take a ticket's slot with it
    return Effect.uninterruptibleMask((restore) =>
      Effect.suspend(() => {
        const ticket: Ticket = { granted: false, left: false, wake: undefined }
        if (this.queue.length === 0 && this.free()) this.grant(ticket)
        else this.queue.push(ticket)
        const stop = whenLeaving === undefined ? undefined : whenLeaving(() => this.leave(ticket))
        const turn = ticket.granted ? Effect.void : Effect.interruptible(Effect.async<void>((resume) => {
          if (ticket.granted) resume(Effect.void)
          else ticket.wake = () => resume(Effect.void)
        }))
        return Effect.ensuring(
          Effect.zipRight(turn, restore(effect)),
          Effect.sync(() => {
            stop?.()
            this.leave(ticket)
          })
        )
      })
    )
  }

  private free(): boolean {
    return this.active < this.limit && this.startedThisTurn < this.limit * TURN_BUDGET
  }

  private grant(ticket: Ticket): void {
    this.active++
    this.startedThisTurn++
    ticket.granted = true
    if (!this.turnScheduled) {
      this.turnScheduled = true
      afterIo(this.nextTurn)
    }
  }

  private readonly nextTurn = (): void => {
    this.turnScheduled = false
    this.startedThisTurn = 0
    this.admit()
  }

  /** Hands free slots to the next in line. */
  private admit(): void {
    while (this.queue.length > 0 && this.free()) {
      const next = this.queue.shift()!
      this.grant(next)
      next.wake?.()
    }
  }

  private leave(ticket: Ticket): void {
    if (ticket.left) return
    ticket.left = true
    if (!ticket.granted) {
      const index = this.queue.indexOf(ticket)
      if (index >= 0) this.queue.splice(index, 1)
      return
    }
    this.active--
    this.admit()
  }
}
