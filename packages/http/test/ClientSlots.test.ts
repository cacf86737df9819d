import { EventEmitter } from "node:events"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Option, Random } from "effect"
import { type ClientConnection, onClientLeaving } from "../src/clientConnection.js"
import { ClientSlots } from "../src/ClientSlots.js"

/** A connection the test closes, as a client leaving closes its socket. */
const connection = (destroyed = false): ClientConnection & EventEmitter => Object.assign(new EventEmitter(), { destroyed })

/** What `run` is handed to give a slot back when `socket` closes. */
const leavingOn = (socket: ClientConnection) => (leave: () => void) => onClientLeaving(socket, leave)

/** How many of `slots` run at once at most, over `count` short jobs started together. */
const mostAtOnce = (slots: ClientSlots, count: number) =>
  Effect.gen(function*() {
    let running = 0
    let most = 0
    yield* Effect.all(Array.from({ length: count }, () =>
      slots.run(Effect.gen(function*() {
        running++
        most = Math.max(most, running)
        yield* Effect.sleep(Duration.millis(2))
        running--
      }))), { concurrency: "unbounded" })
    return most
  })

describe("ClientSlots", () => {
  it.live("never runs more than its limit at once and hands slots on in arrival order", () =>
    Effect.gen(function*() {
      const slots = new ClientSlots(2)
      let running = 0
      let most = 0
      const order: Array<number> = []
      const job = (n: number) =>
        slots.run(Effect.gen(function*() {
          running++
          most = Math.max(most, running)
          order.push(n)
          yield* Effect.sleep(Duration.millis(5))
          running--
        }))
      yield* Effect.all([0, 1, 2, 3, 4, 5].map(job), { concurrency: "unbounded" })
      expect(most).toBe(2)
      expect(order).toEqual([0, 1, 2, 3, 4, 5])
    }))

  it.live("loses no slot when clients go away while they wait, just as a slot reaches them, or while they run", () =>
    Effect.gen(function*() {
      const slots = new ClientSlots(2)
      for (let round = 0; round < 300; round++) {
        const fibers = yield* Effect.forEach([0, 1, 2, 3, 4], () =>
          Effect.fork(slots.run(Effect.flatMap(Random.nextIntBetween(0, 3), (ms) => Effect.sleep(Duration.millis(ms))))))
        yield* Effect.sleep(Duration.millis(yield* Random.nextIntBetween(0, 3)))
        yield* Effect.forEach(fibers, (fiber, i) => (i % 2 === round % 2 ? Fiber.interrupt(fiber) : Fiber.await(fiber)), { discard: true })
      }
      const free = yield* Effect.all([slots.run(Effect.succeed(1)), slots.run(Effect.succeed(2))], { concurrency: 2 }).pipe(
        Effect.timeout(Duration.seconds(1))
      )
      expect(free).toEqual([1, 2])
    }))

  it.live("gives a slot back as soon as its client leaves, though the request goes on running, and only once", () =>
    Effect.gen(function*() {
      const slots = new ClientSlots(1)
      const socket = connection()
      const stuck = yield* Effect.forkDaemon(slots.run(Effect.never, leavingOn(socket)))
      yield* Effect.sleep(Duration.millis(10))
      expect(yield* Effect.option(Effect.timeout(slots.run(Effect.succeed(1)), Duration.millis(50)))).toEqual(Option.none())
      socket.emit("close")
      expect(yield* Effect.timeout(slots.run(Effect.succeed(2)), Duration.seconds(1))).toBe(2)
      yield* Fiber.interrupt(stuck)
      expect(socket.listenerCount("close")).toBe(0)
      expect(yield* mostAtOnce(slots, 4)).toBe(1)
    }))

  it.live("a request whose client has left already holds no slot, and one waiting in line gives its place up", () =>
    Effect.gen(function*() {
      const slots = new ClientSlots(1)
      const gone = yield* Effect.forkDaemon(slots.run(Effect.never, leavingOn(connection(true))))
      yield* Effect.sleep(Duration.millis(10))
      const running = yield* Effect.forkDaemon(slots.run(Effect.never))
      yield* Effect.sleep(Duration.millis(10))
      const socket = connection()
      const waiting = yield* Effect.forkDaemon(slots.run(Effect.succeed("late"), leavingOn(socket)))
      yield* Effect.sleep(Duration.millis(10))
      socket.emit("close")
      yield* Fiber.interrupt(running)
      expect(yield* Effect.timeout(slots.run(Effect.succeed(3)), Duration.seconds(1))).toBe(3)
      yield* Fiber.interrupt(gone)
      yield* Fiber.interrupt(waiting)
      expect(yield* mostAtOnce(slots, 4)).toBe(1)
    }))

  it.live("starts at most 4 × its limit in one turn of the event loop; the rest after the loop has polled for I/O", () =>
    Effect.gen(function*() {
      const slots = new ClientSlots(1)
      let done = 0
      let seenByTheLoop = -1
      setImmediate(() => seenByTheLoop = done)
      yield* Effect.all(Array.from({ length: 10 }, () => slots.run(Effect.sync(() => done++))), { concurrency: "unbounded" })
      expect(seenByTheLoop).toBe(4)
      expect(done).toBe(10)
    }))
})
