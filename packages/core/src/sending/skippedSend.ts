import type { SendId } from "../domain/Ids.js"
import type { ClaimedSend } from "../domain/Send.js"
import type { DeliveryOutcome } from "./deliveryOutcome.js"

/** The outcome of a send that is not mailed: failed for `reason`, never handed to the transport. */
export const skippedOutcome = (id: SendId, reason: string): DeliveryOutcome => ({ result: { _tag: "Failed", id, reason }, bounce: null })

/** Why a subscriber's send must not go out (deleted, unsubscribed or suppressed since it was queued), else null. */
export const subscriberSkipReason = (subscriber: ClaimedSend["subscriber"], suppressed: boolean): string | null =>
  subscriber === null
    ? "The subscriber was deleted before the mail went out."
    : !subscriber.subscribed
    ? "The subscriber was no longer subscribed when the mail went out."
    : suppressed
    ? "The address is suppressed."
    : null
