/** Helpers to see that a server let go of its port. */
import { createServer } from "node:net"
import { setTimeout as sleep } from "node:timers/promises"

/** True when 127.0.0.1:port can be bound now (nobody listens there). */
export const portIsFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = createServer()
    probe.once("error", () => resolve(false))
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)))
  })

/** Resolves once `check` holds; rejects after `timeoutMs`. */
export const waitUntil = async (check: () => Promise<boolean>, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waitUntil: still false after ${timeoutMs} ms`)
    await sleep(200)
  }
}
