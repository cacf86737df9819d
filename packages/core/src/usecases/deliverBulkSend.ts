import { Effect } from "effect"
import type { ClaimedSend } from "../domain/Send.js"
import type { Mailer, MailError } from "../ports/Mailer.js"
import { type DeliveryOutcome, deliveryOutcome } from "../sending/deliveryOutcome.js"
import type { Recipient } from "../sending/mailScope.js"
import { type BulkMail, type BulkMailAddresses, handOverBulkMail } from "./BulkMail.js"
import { now } from "./now.js"
import type { UrlSigner } from "./UrlSigner.js"

/** The services and retry rule of a subscriber mail's delivery. */
export interface BulkSendDelivery {
  readonly signer: UrlSigner
  readonly mailer: Mailer["Type"]
  readonly retryForMillis: number
}

/**
 * Signs a subscriber's send, hands its mail to the transport and makes its outcome (never fails): `note` is told of a
 * transport failure, `shape` makes the outcome from the delivery outcome and the failure (null when it went out).
 * As few effects per mail as inline: this runs thousands of times a second.
 */
export const deliverBulkSend = <O>(
  delivery: BulkSendDelivery,
  bulk: BulkMail,
  addresses: BulkMailAddresses,
  send: ClaimedSend,
  recipient: Recipient,
  note: (error: MailError) => Effect.Effect<void>,
  shape: (outcome: DeliveryOutcome, error: MailError | null) => O
): Effect.Effect<O> =>
  Effect.flatMap(
    delivery.signer.signSend(send.uuid),
    (signatures) => handOverBulkMail(delivery.mailer, bulk, addresses, { sendUuid: send.uuid, signatures, recipient })
  ).pipe(
    Effect.matchEffect({
      onSuccess: () => Effect.sync(() => shape(deliveryOutcome(send, null, new Date(), delivery.retryForMillis), null)),
      onFailure: (error) =>
        Effect.zipRight(
          note(error),
          Effect.map(now, (at) => shape(deliveryOutcome(send, error, at, delivery.retryForMillis), error))
        )
    })
  )
