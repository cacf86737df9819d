import { Context, type Effect, type Option } from "effect"
import type { Page } from "../domain/CollectionQuery.js"
import type { SendQuery } from "../domain/Collections.js"
import type { CampaignId, EmailListId, SendId, SendUuid } from "../domain/Ids.js"
import type { SegmentRule } from "../domain/SegmentRule.js"
import type { ClaimedSend, Send } from "../domain/Send.js"

/** A send with the public ids of its campaign, transactional or automation mail and subscriber (null when they are gone). */
export interface ListedSend {
  readonly send: Send
  readonly campaignUuid: string | null
  readonly transactionalMailUuid: string | null
  readonly automationMailUuid: string | null
  readonly subscriberUuid: string | null
}

/**
 * The outcome of one claimed send. `Sent` (with `uncertain` when the connection was lost after the hand-over) and
 * `Failed` finish it; `Retry` leaves it pending until `retryAt`. `attempted` says the transport was tried (a send
 * skipped because its subscriber left is not an attempt).
 */
export type DeliveryResult =
  | { readonly _tag: "Sent"; readonly id: SendId; readonly transportMessageId: string | null; readonly uncertain?: boolean }
  | { readonly _tag: "Failed"; readonly id: SendId; readonly reason: string; readonly attempted?: boolean }
  | { readonly _tag: "Retry"; readonly id: SendId; readonly reason: string; readonly retryAt: Date }

/**
 * Storage of sends. The audience is frozen in set-based batches (one INSERT … SELECT per batch, unique per campaign
 * and subscriber, so repeating a batch adds nothing); delivery claims pending sends under a lease.
 */
export class SendRepository extends Context.Tag("@mailroom/SendRepository")<SendRepository, {
  /**
   * Creates sends for the next `limit` eligible subscribers with an id above `afterSubscriberId` (subscribed, in
   * the segment, address not suppressed); returns how many subscribers the batch covered and the last one's id.
   */
  readonly freezeBatch: (options: {
    readonly campaignId: CampaignId
    readonly emailListId: EmailListId
    readonly segment: SegmentRule | null
    readonly afterSubscriberId: number
    readonly limit: number
    readonly at: Date
  }) => Effect.Effect<{ readonly covered: number; readonly lastSubscriberId: number }>
  /**
   * Claims up to `limit` due, unfinished sends of the campaign whose lease is free or ran out, leasing them to `owner`
   * until `leaseUntil`. Claiming is not an attempt: a send claimed again after a crash keeps its attempts.
   */
  readonly claim: (options: {
    readonly campaignId: CampaignId
    readonly now: Date
    readonly leaseUntil: Date
    readonly limit: number
    readonly owner: string
  }) => Effect.Effect<ReadonlyArray<ClaimedSend>>
  /** Extends the lease of those of these unfinished sends that `owner` still holds (a store may skip rows another transaction is writing); how many it extended. */
  readonly renew: (options: {
    readonly ids: ReadonlyArray<SendId>
    readonly owner: string
    readonly leaseUntil: Date
  }) => Effect.Effect<number>
  /** Gives back the leases `owner` holds on these unfinished sends, so any worker may claim them at once. */
  readonly release: (options: { readonly ids: ReadonlyArray<SendId>; readonly owner: string }) => Effect.Effect<void>
  /**
   * Records delivery outcomes of unfinished sends and frees their leases (one statement per kind of outcome); a send
   * already sent or failed stays as it is (the first outcome recorded wins). A sent send keeps no failure reason; a
   * retried one keeps the last reason and when its temporary failures began. Returns how many sends it moved to sent,
   * so a counter kept in the same transaction never counts a send twice.
   */
  readonly record: (results: ReadonlyArray<DeliveryResult>, at: Date) => Effect.Effect<number>
  /** Sends of the campaign neither sent nor failed. */
  readonly pendingCount: (campaignId: CampaignId) => Effect.Effect<number>
  /** Sends of the campaign that were mailed. */
  readonly sentCount: (campaignId: CampaignId) => Effect.Effect<number>
  readonly findByUuid: (uuid: SendUuid) => Effect.Effect<Option.Option<ListedSend>>
  /** The sends with these ids that exist, in id order. */
  readonly findByIds: (ids: ReadonlyArray<SendId>) => Effect.Effect<ReadonlyArray<ListedSend>>
  /** The most recent mailed send to this (normalized) address, to attribute feedback that names no send. */
  readonly latestSentTo: (email: string) => Effect.Effect<Option.Option<Send>>
  /**
   * The latest send whose transport recorded this Message-ID (compared without angle brackets: `<id@host>` and
   * `id@host` are the same), to attribute provider feedback that reports the message id.
   */
  readonly findByTransportMessageId: (messageId: string) => Effect.Effect<Option.Option<Send>>
  readonly list: (query: SendQuery) => Effect.Effect<Page<ListedSend>>
  readonly delete: (id: SendId) => Effect.Effect<boolean>
}>() {}
