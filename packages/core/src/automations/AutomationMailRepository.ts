import { Context, type Effect, type Option } from "effect"
import type { CampaignCounters } from "../domain/Campaign.js"
import type { BounceQuery, ClickQuery, OpenQuery, UnsubscribeQuery } from "../domain/Collections.js"
import type { Page } from "../domain/CollectionQuery.js"
import type { BounceRow, ClickRow, OpenRow, UnsubscribeRow } from "../domain/Feedback.js"
import type { SendId, SendUuid, SubscriberId } from "../domain/Ids.js"
import type { ClaimedSend } from "../domain/Send.js"
import type { AutomationMailId, AutomationMailUuid } from "./AutomationIds.js"
import type { AutomationMail } from "./AutomationMail.js"
import type { AutomationMailQuery } from "./AutomationMailCollections.js"

/** An automation mail before the store has given it an id. */
export type NewAutomationMail = Omit<AutomationMail, "id">

/** The writable part of an automation mail (its content and switches; never its ids, counters or creation time). */
export type AutomationMailChanges = Omit<AutomationMail, "id" | "uuid" | "createdAt" | keyof CampaignCounters>

/** One send of a `send_mail` step: the mail to one subscriber in one run of an automation. */
export interface QueuedAutomationSend {
  readonly uuid: SendUuid
  readonly mailId: AutomationMailId
  readonly runId: number
  readonly subscriberId: SubscriberId
  readonly email: string
}

/** The list of a claimed send's subscriber: what the mail names and its sender defaults. */
export interface AutomationSendList {
  readonly id: number
  readonly uuid: string
  readonly name: string
  readonly defaultFromEmail: string
  readonly defaultFromName: string | null
  readonly defaultReplyToEmail: string | null
  readonly defaultReplyToName: string | null
}

/** A pending send of an automation mail, claimed for delivery, with its subscriber and that subscriber's list. */
export interface ClaimedAutomationSend extends ClaimedSend {
  readonly mailId: AutomationMailId
  /** When the mail was last changed (its version, so that delivery reads it only when it changed); null when it is gone. */
  readonly mailUpdatedAt: Date | null
  readonly list: AutomationSendList | null
}

/** A tracked link of an automation mail. */
export interface AutomationMailLink {
  readonly id: number
  readonly automationMailId: AutomationMailId
  readonly url: string
}

/**
 * Storage of automation mails, their sends (pending sends are created by the automation runner through `queueSends`
 * and delivered under a lease like campaign sends; outcomes go through SendRepository), tracked links, clicks,
 * unsubscribes and counters. Infrastructure failures are defects.
 */
export class AutomationMailRepository extends Context.Tag("@mailroom/AutomationMailRepository")<AutomationMailRepository, {
  readonly insert: (mail: NewAutomationMail) => Effect.Effect<AutomationMail>
  readonly update: (id: AutomationMailId, changes: AutomationMailChanges) => Effect.Effect<Option.Option<AutomationMail>>
  readonly findById: (id: AutomationMailId) => Effect.Effect<Option.Option<AutomationMail>>
  readonly findByUuid: (uuid: AutomationMailUuid) => Effect.Effect<Option.Option<AutomationMail>>
  /** The mails with these ids (those that exist), in one look-up. */
  readonly findByIds: (ids: ReadonlyArray<AutomationMailId>) => Effect.Effect<ReadonlyArray<AutomationMail>>
  /** Deletes the mail with its links, clicks and unsubscribes (its sends stay, naming a mail that is gone). */
  readonly delete: (id: AutomationMailId) => Effect.Effect<boolean>
  readonly list: (query: AutomationMailQuery) => Effect.Effect<Page<AutomationMail>>
  /**
   * Inserts pending sends in one statement, skipping any whose run and mail already have a send (the unique
   * (automation_run_id, automation_mail_id)): how many were inserted. Runs in the caller's transaction.
   */
  readonly queueSends: (sends: ReadonlyArray<QueuedAutomationSend>, at: Date) => Effect.Effect<number>
  /**
   * Claims up to `limit` due, unfinished automation mail sends whose lease is free or ran out, oldest first, leasing
   * them to `owner` until `leaseUntil`.
   */
  readonly claim: (options: {
    readonly now: Date
    readonly leaseUntil: Date
    readonly limit: number
    readonly owner: string
  }) => Effect.Effect<ReadonlyArray<ClaimedAutomationSend>>
  /** Adds to the mail's counters. */
  readonly addCounters: (id: AutomationMailId, counters: Partial<CampaignCounters>, at: Date) => Effect.Effect<void>
  /** The tracked links of the mail for these urls, created when missing (in the order given). */
  readonly ensureLinks: (id: AutomationMailId, urls: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<AutomationMailLink>>
  readonly findLink: (linkId: number) => Effect.Effect<Option.Option<AutomationMailLink>>
  /** Counts a click of a send on a link; `firstForSend` and `firstForLink` tell the unique counts to bump. */
  readonly recordClick: (sendId: SendId, linkId: number, at: Date) => Effect.Effect<
    { readonly firstForSend: boolean; readonly firstForLink: boolean }
  >
  /** Attributes an unsubscribe to the mail once per subscriber; true when new. */
  readonly recordUnsubscribe: (row: {
    readonly mailId: AutomationMailId
    readonly sendId: SendId | null
    readonly subscriberId: number
    readonly email: string
    readonly at: Date
  }) => Effect.Effect<boolean>
  readonly opens: (id: AutomationMailId, query: OpenQuery) => Effect.Effect<Page<OpenRow>>
  readonly clicks: (id: AutomationMailId, query: ClickQuery) => Effect.Effect<Page<ClickRow>>
  /** Unsubscribes attributed to the mail (`campaignId` holds the mail's id). */
  readonly unsubscribes: (id: AutomationMailId, query: UnsubscribeQuery) => Effect.Effect<Page<UnsubscribeRow>>
  readonly bounces: (id: AutomationMailId, query: BounceQuery) => Effect.Effect<Page<BounceRow>>
}>() {}
