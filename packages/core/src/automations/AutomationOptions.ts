import { Context, Duration } from "effect"

/** How the automation scheduler works: positions per claim, their lease, and how often an idle scheduler looks. */
export class AutomationOptions extends Context.Reference<AutomationOptions>()("@mailroom/AutomationOptions", {
  defaultValue: () => ({
    batchSize: 500,
    lease: Duration.seconds(60),
    pollInterval: Duration.seconds(1),
    /** Members enrolled per statement by a date trigger. */
    enrolBatch: 5_000,
    /** How long a failing webhook action is retried before its subscriber is halted. */
    webhookRetryFor: Duration.hours(24)
  })
}) {}
