import { Effect } from "effect"

interface Ticket {
  granted: boolean
  wake: (() => void) | undefined
}

/**
 * At most `limit` effects of one client run at once; the others wait in arrival order. A slot is handed from the
 * effect that ends straight to the next in line, and whatever ends an effect (success, failure, or the client going
 * away while it waits or runs) gives its slot back, so slots are never lost.
 *
 * Written for Mailroom rather than taken from Effect's Semaphore: the platform runs middleware uninterruptibly and
 * `withPermits` waits with its caller's interruptibility, so a request whose client had left stayed in line until its
 * turn came. Here the wait is interruptible, and its finaliser is in place before it waits, so a slot handed to a
 * waiter that is being interrupted goes on to the next in line instead of being lost.
 */
export class ClientSlots {
  private active = 0
  private readonly queue: Array<Ticket> = []

  constructor(private readonly limit: number) {}

  /** Runs `effect` in a slot, waiting for one first when all are taken. */
  run<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
    return Effect.suspend(() => {
      const ticket: Ticket = { granted: false, wake: undefined }
      if (this.active < this.limit) {
        this.active++
        ticket.granted = true
      } else {
        this.queue.push(ticket)
      }
      const turn = ticket.granted ? Effect.void : Effect.interruptible(Effect.async<void>((resume) => {
        if (ticket.granted) resume(Effect.void)
        else ticket.wake = () => resume(Effect.void)
      }))
      return Effect.ensuring(Effect.zipRight(turn, effect), Effect.sync(() => this.leave(ticket)))
    })
  }

  private leave(ticket: Ticket): void {
    if (!ticket.granted) {
      const index = this.queue.indexOf(ticket)
      if (index >= 0) this.queue.splice(index, 1)
      return
    }
    const next = this.queue.shift()
    if (next === undefined) {
      this.active--
      return
    }
    next.granted = true
    next.wake?.()
  }
}
