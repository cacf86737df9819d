import type { ApiToken } from "../../domain/ApiToken.js"
import type { EmailList } from "../../domain/EmailList.js"
import type { Campaign } from "../../domain/Campaign.js"
import type { BounceType, UnsubscribeRow } from "../../domain/Feedback.js"
import type { Job } from "../../domain/Job.js"
import type { Send } from "../../domain/Send.js"
import type { CampaignLink } from "../../ports/CampaignLinkRepository.js"
import type { NewSegment } from "../../ports/SegmentRepository.js"
import type { NewSubscriber } from "../../ports/SubscriberRepository.js"
import type { NewTag } from "../../ports/TagRepository.js"
import type { Suppression } from "../../domain/Suppression.js"
import type { SubscriberImport } from "../../domain/SubscriberImport.js"
import type { Template } from "../../domain/Template.js"
import type { TransactionalMail } from "../../transactional/TransactionalMail.js"
import type { TransactionalTemplate } from "../../transactional/TransactionalTemplate.js"
import type { EventPosition } from "../../events/EventPosition.js"
import type { NewEvent } from "../../events/NewEvent.js"
import type { Webhook } from "../../webhooks/Webhook.js"
import type { WebhookDelivery } from "../../webhooks/WebhookDelivery.js"
import type { Automation } from "../../automations/Automation.js"
import type { RunState } from "../../automations/AutomationStatus.js"
import type { AutomationMail } from "../../automations/AutomationMail.js"

/** Every table of the in-memory store. Rows are immutable values, so a snapshot is a shallow copy of each map. */
export interface MemoryTables {
  readonly templates: Map<number, Template>
  readonly emailLists: Map<number, EmailList>
  readonly suppressions: Map<number, Suppression>
  readonly apiTokens: Map<number, ApiToken>
  readonly tags: Map<number, NewTag & { readonly id: number }>
  readonly segments: Map<number, NewSegment & { readonly id: number }>
  readonly subscribers: Map<number, NewSubscriber & { readonly id: number }>
  /** Tag ids per subscriber id; each set is replaced, never mutated, so snapshots stay intact. */
  readonly subscriberTags: Map<number, ReadonlySet<number>>
  readonly jobs: Map<number, Job>
  readonly campaigns: Map<number, Campaign>
  /** Sends with their lease and retry time. */
  readonly sends: Map<number, {
    readonly send: Send
    readonly lockedUntil: Date | null
    readonly leaseOwner: string | null
    readonly retryAt: Date | null
    readonly deferredSince: Date | null
    /** The automation run that queued it (unique with its automation mail). */
    readonly automationRunId?: number | null
  }>
  readonly campaignLinks: Map<number, CampaignLink>
  readonly settings: Map<number, { readonly key: string; readonly value: string }>
  readonly campaignClicks: Map<number, { readonly sendId: number; readonly linkId: number; readonly clickCount: number }>
  readonly campaignUnsubscribes: Map<number, UnsubscribeRow & { readonly id: number; readonly sendId: number }>
  readonly subscriberImports: Map<number, SubscriberImport>
  /** CSV parts of imports, keyed by part id (parts of one import are numbered by `seq`). */
  readonly importParts: Map<number, { readonly importId: number; readonly seq: number; readonly text: string }>
  readonly importErrors: Map<number, { readonly importId: number; readonly line: number; readonly email: string | null; readonly reason: string }>
  /** The import that last wrote each subscriber (by subscriber id). */
  readonly importMarks: Map<number, number>
  readonly bounces: Map<number, {
    readonly id: number
    readonly campaignId: number | null
    readonly automationMailId?: number | null
    readonly sendId: number | null
    readonly subscriberId: number | null
    readonly email: string
    readonly type: BounceType
    readonly createdAt: Date
  }>
  readonly transactionalTemplates: Map<number, TransactionalTemplate>
  readonly transactionalMails: Map<number, TransactionalMail>
  /** The outbox: recorded domain events by id. */
  readonly events: Map<number, NewEvent & { readonly id: number }>
  readonly eventConsumers: Map<number, { readonly id: number; readonly name: string; readonly position: EventPosition }>
  readonly webhooks: Map<number, Webhook>
  /** Webhook deliveries with their lease. */
  readonly webhookDeliveries: Map<number, { readonly delivery: WebhookDelivery; readonly lockedUntil: Date | null; readonly leaseOwner: string | null }>
  readonly automations: Map<number, Automation>
  /** Subscribers' positions in automations: a run's first row has no `runId` (its own id is the run's key). */
  readonly automationRuns: Map<number, {
    readonly id: number
    readonly automationId: number
    readonly subscriberId: number
    readonly runId: number | null
    readonly actionUuid: string
    readonly state: RunState
    readonly enteredAt: Date
    readonly arrivedAt: Date
    /** When it is next due; a claim moves it to the lease's end. */
    readonly nextRunAt: Date | null
    readonly leaseOwner: string | null
    readonly haltedReason: string | null
    readonly updatedAt: Date
  }>
  /** Passes per action of an automation (one row per automation and action uuid). */
  readonly automationActionCounts: Map<number, { readonly automationId: number; readonly actionUuid: string; readonly completed: number }>
  readonly automationMails: Map<number, AutomationMail>
  /** Tracked links of automation mails with their click counts. */
  readonly automationMailLinks: Map<number, {
    readonly id: number
    readonly automationMailId: number
    readonly url: string
    readonly clickCount: number
    readonly uniqueClickCount: number
  }>
  readonly automationMailClicks: Map<number, { readonly sendId: number; readonly linkId: number; readonly clickCount: number }>
  readonly automationMailUnsubscribes: Map<number, {
    readonly id: number
    readonly automationMailId: number
    readonly sendId: number | null
    readonly subscriberId: number
    readonly email: string
    readonly createdAt: Date
  }>
}

/** The mutable state behind the in-memory store: its tables and the last id handed out per table. */
export class MemoryState {
  tables: MemoryTables = {
    templates: new Map(),
    emailLists: new Map(),
    suppressions: new Map(),
    apiTokens: new Map(),
    tags: new Map(),
    segments: new Map(),
    subscribers: new Map(),
    subscriberTags: new Map(),
    jobs: new Map(),
    campaigns: new Map(),
    sends: new Map(),
    campaignLinks: new Map(),
    settings: new Map(),
    campaignClicks: new Map(),
    campaignUnsubscribes: new Map(),
    subscriberImports: new Map(),
    importParts: new Map(),
    importErrors: new Map(),
    importMarks: new Map(),
    bounces: new Map(),
    transactionalTemplates: new Map(),
    transactionalMails: new Map(),
    events: new Map(),
    eventConsumers: new Map(),
    webhooks: new Map(),
    webhookDeliveries: new Map(),
    automations: new Map(),
    automationRuns: new Map(),
    automationActionCounts: new Map(),
    automationMails: new Map(),
    automationMailLinks: new Map(),
    automationMailClicks: new Map(),
    automationMailUnsubscribes: new Map()
  }
  private readonly sequences = new Map<keyof MemoryTables, number>()

  /** The next integer id of a table, like an auto-increment column (ids are not reused). */
  nextId(table: keyof MemoryTables): number {
    const id = (this.sequences.get(table) ?? 0) + 1
    this.sequences.set(table, id)
    return id
  }

  /** A copy of the tables to restore if a transaction fails. */
  snapshot(): MemoryTables {
    const copy = {} as Record<keyof MemoryTables, Map<number, unknown>>
    for (const [name, table] of Object.entries(this.tables)) copy[name as keyof MemoryTables] = new Map(table)
    return copy as unknown as MemoryTables
  }

  /** Puts back tables taken by `snapshot`. */
  restore(tables: MemoryTables): void {
    this.tables = tables
  }
}
