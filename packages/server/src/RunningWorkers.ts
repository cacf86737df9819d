import { Context, type Effect } from "effect"

/** The background workers of this process (WORKERS=true): whether they still run, for /readyz. */
export class RunningWorkers extends Context.Tag("@mailroom/server/RunningWorkers")<RunningWorkers, {
  readonly running: Effect.Effect<boolean>
}>() {}
