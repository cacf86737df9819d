import { Effect } from "effect"

/**
 * Lets the event loop take waiting I/O (a request that arrived, a socket that can be read) before the fiber goes on.
 * Effect resumes a fiber that yields on the microtask queue, which runs before any I/O, so a fiber that only runs
 * synchronous SQLite statements (an import batch) held every request until its transaction ended; a macrotask
 * (`setImmediate`, after the poll phase) lets them in, for a few microseconds.
 */
export const letIoIn: Effect.Effect<void> = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})
