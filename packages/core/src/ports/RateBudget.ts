import { Context, type Effect } from "effect"

/** A per-second sending budget shared by every worker process (so a rate limit holds across processes). */
export class RateBudget extends Context.Tag("@mailroom/RateBudget")<RateBudget, {
  /** Takes up to `want` of the `limit` tokens of the second `now` falls in for `key`; the number granted (maybe 0). */
  readonly take: (key: string, want: number, limit: number, now: Date) => Effect.Effect<number>
}>() {}
