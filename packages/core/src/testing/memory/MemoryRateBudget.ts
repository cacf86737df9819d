import { Effect } from "effect"
import { RateBudget } from "../../ports/RateBudget.js"

/** RateBudget in memory (one process). */
export const makeMemoryRateBudget = () => {
  const windows = new Map<string, { second: number; used: number }>()
  return RateBudget.of({
    take: (key, want, limit, now) =>
      Effect.sync(() => {
        const second = Math.floor(now.getTime() / 1000)
        const current = windows.get(key)
        const used = current?.second === second ? current.used : 0
        const granted = Math.max(0, Math.min(want, limit - used))
        windows.set(key, { second, used: used + granted })
        return granted
      })
  })
}
