import { Context, Duration, Effect } from "effect"
import { type Job, MAX_JOB_ATTEMPTS, retryDelayMillis } from "../domain/Job.js"
import { type MailError, Mailer } from "../ports/Mailer.js"
import { JobQueue } from "../ports/JobQueue.js"
import { CAMPAIGN_TEST_MAIL } from "./CampaignActions.js"
import { CampaignTestMails } from "./CampaignTestMails.js"
import { AUTOMATION_MAIL_TEST_MAIL } from "../automations/AutomationMails.js"
import { AutomationMailTestMails } from "../automations/AutomationMailTestMails.js"
import { CONFIRMATION_MAIL, ConfirmationMails } from "./ConfirmationMails.js"
import { makeDeliveryProblems } from "../sending/DeliveryProblems.js"
import { MailroomMetrics } from "../metrics/MailroomMetrics.js"
import { now } from "./now.js"
import { pollForever, SLOWEST_IDLE_POLL } from "./pollForever.js"

/** How the worker polls: pause when no job is due, lease length, batch size and parallel jobs. */
export class JobWorkerOptions extends Context.Reference<JobWorkerOptions>()("@mailroom/JobWorkerOptions", {
  defaultValue: () => ({
    pollInterval: Duration.millis(500),
    lease: Duration.minutes(2),
    batchSize: 20,
    concurrency: 8
  })
}) {}

/** Runs durable jobs: claims due ones under a lease, retries transient failures with backoff, gives up permanent ones. */
export class JobWorker extends Effect.Service<JobWorker>()("@mailroom/JobWorker", {
  effect: Effect.gen(function*() {
    const queue = yield* JobQueue
    const options = yield* JobWorkerOptions
    const confirmations = yield* ConfirmationMails
    const mailer = yield* Mailer
    const testMails = yield* CampaignTestMails
    const automationTestMails = yield* AutomationMailTestMails
    const problems = makeDeliveryProblems()

    const handlers: Record<string, (payload: unknown) => Effect.Effect<void, MailError, never>> = {
      [CONFIRMATION_MAIL]: (payload) => Effect.provideService(confirmations.deliver(payload), Mailer, mailer),
      [CAMPAIGN_TEST_MAIL]: (payload) => Effect.provideService(testMails.deliver(payload), Mailer, mailer),
      [AUTOMATION_MAIL_TEST_MAIL]: (payload) => Effect.provideService(automationTestMails.deliver(payload), Mailer, mailer)
    }

    const runJob = (job: Job) =>
      Effect.gen(function*() {
        const handler = handlers[job.kind]
        if (handler === undefined) return yield* queue.fail(job.id, yield* now, `Unknown job kind ${job.kind}`)
        const kind = job.kind === CONFIRMATION_MAIL ? "confirmation" : "test"
        yield* handler(job.payload).pipe(
          Effect.flatMap(() => Effect.flatMap(now, (at) => queue.complete(job.id, at))),
          Effect.tap(() => MailroomMetrics.countMail(kind, "Sent")),
          Effect.catchAll((error) =>
            Effect.gen(function*() {
              const at = yield* now
              yield* problems.note(`job ${job.id} (${job.kind})`, error.failure, error.message)
              // the mail may have arrived: it is never sent again (DECISIONS 13)
              if (error.failure === "unknown") {
                MailroomMetrics.countMail(kind, "Sent")
                return yield* queue.complete(job.id, at)
              }
              if (error.failure === "permanent" || job.attempts >= MAX_JOB_ATTEMPTS) {
                MailroomMetrics.countMail(kind, "Failed")
                return yield* queue.fail(job.id, at, error.message)
              }
              MailroomMetrics.countMail(kind, "Retry")
              yield* queue.retry(job.id, new Date(at.getTime() + retryDelayMillis(job.attempts)), error.message)
            })
          ),
          Effect.catchAllDefect((defect) =>
            Effect.gen(function*() {
              yield* Effect.logError(`Job ${job.id} (${job.kind}) crashed`, defect)
              const at = yield* now
              yield* queue.retry(job.id, new Date(at.getTime() + retryDelayMillis(job.attempts)), String(defect))
            })
          )
        )
      })

    /** Claims and runs one batch of due jobs; the number of jobs run. */
    const runDue = Effect.fn("JobWorker.runDue")(function*() {
      const at = yield* now
      const jobs = yield* queue.claim({
        now: at,
        leaseUntil: new Date(at.getTime() + Duration.toMillis(options.lease)),
        limit: options.batchSize
      })
      yield* Effect.forEach(jobs, runJob, { concurrency: options.concurrency, discard: true })
      return jobs.length
    })

    /** Runs due jobs until none is left (for tests and one-shot tools). */
    const drain = Effect.fn("JobWorker.drain")(function*() {
      let total = 0
      for (let ran = yield* runDue(); ran > 0; ran = yield* runDue()) total += ran
      return total
    })

    /** Polls forever; run it in a fiber (the server forks it; `mailroom worker` runs only this). */
    const run = pollForever("Job worker", runDue(), options.pollInterval, SLOWEST_IDLE_POLL)

    return { runDue, drain, run } as const
  })
}) {}
