import { Either, Schema } from "effect"

/** Where a subscriber stands: waiting for confirmation, receiving mail, or opted out. */
export const SubscriberStatus = Schema.Literal("unconfirmed", "subscribed", "unsubscribed")
/** @since 0.1.0 */
export type SubscriberStatus = typeof SubscriberStatus.Type

/** What a client can do to a subscriber's status. */
export type SubscriberAction = "confirm" | "unsubscribe" | "resubscribe" | "resendConfirmation"

/** The timestamps that make up a status. */
export interface StatusStamps {
  readonly subscribedAt: Date | null
  readonly unsubscribedAt: Date | null
}

interface Transition {
  readonly from: SubscriberStatus
  readonly rejection: string
  readonly apply: (stamps: StatusStamps, at: Date) => StatusStamps
}

/** The subscriber state machine: for each action, the one status it applies to, its effect, and the refusal. */
export const subscriberTransitions: { readonly [A in SubscriberAction]: Transition } = {
  confirm: {
    from: "unconfirmed",
    rejection: "The subscriber was already confirmed",
    apply: (_, at) => ({ subscribedAt: at, unsubscribedAt: null })
  },
  unsubscribe: {
    from: "subscribed",
    rejection: "This email was not subscribed",
    apply: (stamps, at) => ({ subscribedAt: stamps.subscribedAt, unsubscribedAt: at })
  },
  resubscribe: {
    from: "unsubscribed",
    rejection: "This email was not unsubscribed",
    apply: (stamps) => ({ subscribedAt: stamps.subscribedAt, unsubscribedAt: null })
  },
  resendConfirmation: {
    from: "unconfirmed",
    rejection: "This email is not unconfirmed",
    apply: (stamps) => stamps
  }
}

/** unsubscribed when `unsubscribedAt` is set, else subscribed when `subscribedAt` is set, else unconfirmed. */
export const subscriberStatus = (stamps: StatusStamps): SubscriberStatus =>
  stamps.unsubscribedAt !== null ? "unsubscribed" : stamps.subscribedAt !== null ? "subscribed" : "unconfirmed"

/** Applies an action to a subscriber's stamps: the new stamps, or the refusal message when not allowed. */
export const applySubscriberAction = (
  action: SubscriberAction,
  stamps: StatusStamps,
  at: Date
): Either.Either<StatusStamps, string> => {
  const transition = subscriberTransitions[action]
  return subscriberStatus(stamps) === transition.from
    ? Either.right(transition.apply(stamps, at))
    : Either.left(transition.rejection)
}
