import { Effect, Either, Option } from "effect"
import { normalizeEmail } from "../domain/Email.js"
import type { EmailList } from "../domain/EmailList.js"
import type { SubscriberUuid } from "../domain/Ids.js"
import type { Subscriber } from "../domain/Subscriber.js"
import { applySubscriberAction, type SubscriberAction, subscriberStatus } from "../domain/SubscriberStatus.js"
import { InvalidState } from "../errors/InvalidState.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { NotFound } from "../errors/NotFound.js"
import { confirmationSigned, ConfirmationMails } from "./ConfirmationMails.js"
import { findByRef, orNotFound, parseUuid } from "./lookup.js"
import { now } from "./now.js"
import { retryOnConflict, StoreConflict } from "./StoreConflict.js"
import { UrlSigner } from "./UrlSigner.js"

/** What opening a confirmation link did. */
export type ConfirmationOutcome = "confirmed" | "already-subscribed" | "unsubscribed"

/** Status actions on subscribers (confirm, unsubscribe, resubscribe, resend confirmation) and the confirmation link. */
export class SubscriberActions extends Effect.Service<SubscriberActions>()("@mailroom/SubscriberActions", {
  effect: Effect.gen(function*() {
    const repo = yield* SubscriberRepository
    const lists = yield* EmailListRepository
    const { withTransaction } = yield* Transactor
    const confirmations = yield* ConfirmationMails
    const signer = yield* UrlSigner

    /** Applies the action per the state machine; a refused action is an InvalidState (422). */
    const apply = (action: SubscriberAction, found: Subscriber) =>
      retryOnConflict(withTransaction(Effect.gen(function*() {
        const subscriber = yield* repo.findById(found.id).pipe(orNotFound("Subscriber"))
        const at = yield* now
        const next = applySubscriberAction(action, subscriber, at)
        if (Either.isLeft(next)) return yield* new InvalidState({ message: next.left })
        if (action === "resendConfirmation") return yield* confirmations.request(subscriber)
        const saved = yield* repo.update(subscriber, { ...subscriber, ...next.right, updatedAt: at })
        if (Option.isNone(saved)) return yield* new StoreConflict()
      })))

    /** Runs an action on the subscriber with this uuid (or id). */
    const perform = Effect.fn("SubscriberActions.perform")(function*(action: SubscriberAction, ref: string) {
      const subscriber = yield* findByRef("Subscriber", ref, repo.findByUuid, repo.findById)
      yield* apply(action, subscriber)
    })

    /** Runs an action on the list's subscriber with this address; 404 when the list has no such subscriber. */
    const performByEmail = Effect.fn("SubscriberActions.performByEmail")(function*(
      action: SubscriberAction,
      listRef: string,
      email: string
    ) {
      const list = yield* findByRef("Email list", listRef, lists.findByUuid, lists.findById)
      const subscriber = yield* repo.findByEmail(list.id, normalizeEmail(email)).pipe(orNotFound("Subscriber"))
      yield* apply(action, subscriber)
    })

    /**
     * The subscriber and list a confirmation link names, and the subscriber's status. A link with a signature must
     * carry the right one; a bare-uuid link (mailed before links were signed) is taken as it is. NotFound otherwise.
     */
    const linked = (uuid: string, signature: string | null) =>
      Effect.gen(function*() {
        const subscriber = yield* Option.match(parseUuid(uuid), {
          onNone: () => Effect.succeedNone,
          onSome: (value) => repo.findByUuid(value as SubscriberUuid)
        }).pipe(orNotFound("Subscriber"))
        if (signature !== null && !(yield* signer.verify(confirmationSigned(subscriber.uuid), signature))) {
          return yield* NotFound.of("Subscriber")
        }
        const list: EmailList = yield* lists.findById(subscriber.emailListId).pipe(orNotFound("Subscriber"))
        return { subscriber, list, status: subscriberStatus(subscriber) }
      })

    /** What the confirmation link's page shows (GET and HEAD change nothing, so link scanners confirm nobody). */
    const confirmationPage = Effect.fn("SubscriberActions.confirmationPage")(function*(uuid: string, signature: string | null) {
      const { list, status } = yield* linked(uuid, signature)
      return { list, status }
    })

    /** Confirms through the link's page (a POST): an unconfirmed subscriber is confirmed; repeats change nothing. */
    const confirmByLink = Effect.fn("SubscriberActions.confirmByLink")(function*(uuid: string, signature: string | null) {
      const { list, status, subscriber } = yield* linked(uuid, signature)
      if (status === "unconfirmed") {
        yield* apply("confirm", subscriber).pipe(Effect.catchTag("InvalidState", () => Effect.void))
        return { list, outcome: "confirmed" as ConfirmationOutcome }
      }
      return { list, outcome: (status === "subscribed" ? "already-subscribed" : "unsubscribed") as ConfirmationOutcome }
    })

    return { perform, performByEmail, confirmationPage, confirmByLink } as const
  })
}) {}
