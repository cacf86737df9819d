import { Effect, Option } from "effect"
import { normalizeEmail } from "../domain/Email.js"
import type { SendUuid } from "../domain/Ids.js"
import type { Send } from "../domain/Send.js"
import { SendRepository } from "../ports/SendRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { BouncePolicy } from "../sending/BouncePolicy.js"
import { now } from "../usecases/now.js"
import { parseUuid } from "../usecases/lookup.js"
import type { ProviderReport } from "./ProviderReport.js"

/**
 * Where every bounce or complaint enters, from the generic endpoint or a provider's webhook: matched to the send it is
 * about, then applied through the one bounce policy.
 */
export class FeedbackIntake extends Effect.Service<FeedbackIntake>()("@mailroom/FeedbackIntake", {
  effect: Effect.gen(function*() {
    const sends = yield* SendRepository
    const bounces = yield* BouncePolicy
    const { withTransaction } = yield* Transactor

    /**
     * The send a report is about: the one it names (X-Mailroom-Send, in angle brackets or not) when that went to the
     * address, else none; else the one whose transport message id it reports, when that went to the address; else the
     * latest mail sent to the address.
     */
    const sendOf = (report: ProviderReport, email: string) =>
      Effect.gen(function*() {
        const named = report.sendUuid === null ? Option.none() : parseUuid(report.sendUuid.trim().replace(/^<(.*)>$/, "$1"))
        const toAddress = (send: Option.Option<Send>) => Option.filter(send, (s) => s.email === email)
        if (Option.isSome(named)) return toAddress(Option.map(yield* sends.findByUuid(named.value as SendUuid), (l) => l.send))
        if (report.messageId !== null && report.messageId.trim() !== "") {
          const byMessage = yield* sends.findByTransportMessageId(report.messageId)
          if (Option.isSome(byMessage)) return toAddress(byMessage)
        }
        return yield* sends.latestSentTo(email)
      })

    /** Applies one report; whether the address is suppressed because of it. */
    const record = Effect.fn("FeedbackIntake.record")(function*(report: ProviderReport) {
      const email = normalizeEmail(report.email)
      const send = yield* sendOf(report, email)
      return yield* withTransaction(Effect.flatMap(now, (at) =>
        bounces.apply({
          email,
          type: report.type,
          send: Option.getOrNull(send),
          at
        })))
    })

    return { record } as const
  })
}) {}
