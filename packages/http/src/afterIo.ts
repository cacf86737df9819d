/**
 * Runs `f` after the I/O callbacks of this turn of the event loop (Node's check phase, so at most one poll of the loop
 * away; a 0 ms timer elsewhere).
 */
export const afterIo: (f: () => void) => void = typeof setImmediate === "function" ? (f) => setImmediate(f) : (f) => setTimeout(f, 0)
