/** Runs `f` once the event loop has polled for I/O again (the check phase of Node's loop; a 0 ms timer elsewhere). */
export const afterIo: (f: () => void) => void = typeof setImmediate === "function" ? (f) => setImmediate(f) : (f) => setTimeout(f, 0)
