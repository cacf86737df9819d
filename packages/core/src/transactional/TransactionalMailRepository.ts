import { Context, type Effect, type Option } from "effect"
import type { Page } from "../domain/CollectionQuery.js"
import type { SendId, SendUuid } from "../domain/Ids.js"
import type { TransactionalMailQuery } from "./TransactionalCollections.js"
import type { TransactionalMailId, TransactionalMailUuid } from "./TransactionalIds.js"
import type { LoggedTransactionalMail, TransactionalMail } from "./TransactionalMail.js"

/** A transactional mail before the store has given it an id. */
export type NewTransactionalMail = Omit<TransactionalMail, "id">

/** A pending send of a transactional mail, claimed for delivery. */
export interface ClaimedTransactionalSend {
  readonly id: SendId
  readonly uuid: SendUuid
  readonly mailId: TransactionalMailId
  /** Hand-overs to the transport so far. */
  readonly attempts: number
  /** When its temporary failures began (null before any). */
  readonly deferredSince: Date | null
}

/**
 * Storage of transactional mails (the log) and their sends. A mail and its first send are written in one transaction
 * by the caller; delivery claims pending sends under a lease like campaign sends (and records them through
 * SendRepository).
 */
export class TransactionalMailRepository extends Context.Tag("@mailroom/TransactionalMailRepository")<
  TransactionalMailRepository,
  {
    readonly insert: (mail: NewTransactionalMail) => Effect.Effect<TransactionalMail>
    /**
     * Adds a pending send of the mail (its first, or a resend) to `email` (normalized), attributed to the oldest
     * subscriber with that address, if any.
     */
    readonly addSend: (send: {
      readonly uuid: SendUuid
      readonly mailId: TransactionalMailId
      readonly email: string
      readonly at: Date
    }) => Effect.Effect<{ readonly id: SendId; readonly uuid: SendUuid }>
    readonly findById: (id: TransactionalMailId) => Effect.Effect<Option.Option<TransactionalMail>>
    /** The mails with these ids (those that exist), in one look-up. */
    readonly findByIds: (ids: ReadonlyArray<TransactionalMailId>) => Effect.Effect<ReadonlyArray<TransactionalMail>>
    /** A mail of the log (a stored one) with its latest send. */
    readonly findByUuid: (uuid: TransactionalMailUuid) => Effect.Effect<Option.Option<LoggedTransactionalMail>>
    /** A page of the log (stored mails only). */
    readonly list: (query: TransactionalMailQuery) => Effect.Effect<Page<LoggedTransactionalMail>>
    /**
     * Claims up to `limit` due, unfinished transactional sends whose lease is free or ran out, oldest first, leasing
     * them to `owner` until `leaseUntil`.
     */
    readonly claim: (options: {
      readonly now: Date
      readonly leaseUntil: Date
      readonly limit: number
      readonly owner: string
    }) => Effect.Effect<ReadonlyArray<ClaimedTransactionalSend>>
    /** Deletes those of these mails that are not stored (`store: false`) and have no unfinished send, with their sends. */
    readonly forgetDelivered: (ids: ReadonlyArray<TransactionalMailId>) => Effect.Effect<void>
    /** Counts a click on the send (its counters and times); `first` when it is the send's first click. */
    readonly countClick: (sendId: SendId, at: Date) => Effect.Effect<{ readonly first: boolean }>
  }
>() {}
