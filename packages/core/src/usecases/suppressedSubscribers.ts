import { Effect } from "effect"
import { normalizeEmail } from "../domain/Email.js"
import type { ClaimedSend } from "../domain/Send.js"
import type { SuppressionRepository } from "../ports/SuppressionRepository.js"

/** Which of the claimed sends go to a suppressed subscriber address (one lookup for the batch). */
export const suppressedSubscribers = (
  suppressions: SuppressionRepository["Type"],
  claimed: ReadonlyArray<Pick<ClaimedSend, "subscriber">>
): Effect.Effect<(send: Pick<ClaimedSend, "subscriber">) => boolean> =>
  Effect.map(
    suppressions.suppressedAmong(claimed.flatMap((send) => (send.subscriber === null ? [] : [normalizeEmail(send.subscriber.email)]))),
    (suppressed) => (send) => send.subscriber !== null && suppressed.has(normalizeEmail(send.subscriber.email))
  )
