import { EventConsumers } from "../events/EventConsumers.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { EventRetention } from "../events/EventRetention.js"
import { Webhooks } from "../webhooks/Webhooks.js"
import { MailSending } from "../webhooks/MailSending.js"
import { WebhookDispatcher } from "../webhooks/WebhookDispatcher.js"
import { WebhookPayloads } from "../webhooks/WebhookPayloads.js"
import { WebhookSender } from "../webhooks/WebhookSender.js"
import { WebhookTransport } from "../webhooks/WebhookTransport.js"
import { WebhookDeliveryRepository } from "../webhooks/WebhookDeliveryRepository.js"
import { WebhookRepository } from "../webhooks/WebhookRepository.js"
import { Layer } from "effect"
import { AutomationEntry } from "../automations/AutomationEntry.js"
import type { AutomationRepository } from "../automations/AutomationRepository.js"
import { AutomationRunner } from "../automations/AutomationRunner.js"
import type { AutomationRunRepository } from "../automations/AutomationRunRepository.js"
import { Automations } from "../automations/Automations.js"
import { AutomationTriggers } from "../automations/AutomationTriggers.js"
import { StepEffects } from "../automations/StepEffects.js"
import type { ApiTokenRepository } from "../ports/ApiTokenRepository.js"
import type { CampaignLinkRepository } from "../ports/CampaignLinkRepository.js"
import type { CampaignRepository } from "../ports/CampaignRepository.js"
import type { QueueDepths } from "../ports/QueueDepths.js"
import type { EngagementHistory } from "../ports/EngagementHistory.js"
import type { RateBudget } from "../ports/RateBudget.js"
import type { SendRepository } from "../ports/SendRepository.js"
import type { SettingsRepository } from "../ports/SettingsRepository.js"
import type { CsvParser } from "../ports/CsvParser.js"
import type { EmailListRepository } from "../ports/EmailListRepository.js"
import type { ImportBatchRepository } from "../ports/ImportBatchRepository.js"
import type { JobQueue } from "../ports/JobQueue.js"
import type { Mailer } from "../ports/Mailer.js"
import type { SegmentRepository } from "../ports/SegmentRepository.js"
import type { SubscriberImportRepository } from "../ports/SubscriberImportRepository.js"
import type { SubscriberRepository } from "../ports/SubscriberRepository.js"
import type { SuppressionRepository } from "../ports/SuppressionRepository.js"
import type { TagRepository } from "../ports/TagRepository.js"
import type { TemplateRepository } from "../ports/TemplateRepository.js"
import type { TrackingRepository } from "../ports/TrackingRepository.js"
import type { Transactor } from "../ports/Transactor.js"
import { CampaignActions } from "./CampaignActions.js"
import { BouncePolicy } from "../sending/BouncePolicy.js"
import { PublicLinks } from "../sending/PublicLinks.js"
import { CampaignDelivery } from "./CampaignDelivery.js"
import { CampaignSender } from "./CampaignSender.js"
import { Campaigns } from "./Campaigns.js"
import { CampaignStatistics } from "./CampaignStatistics.js"
import { CampaignTestMails } from "./CampaignTestMails.js"
import { CampaignPreviews } from "./CampaignPreviews.js"
import { EngagementReports } from "./EngagementReports.js"
import { ConfirmationMails } from "./ConfirmationMails.js"
import { EmailLists } from "./EmailLists.js"
import { ImportWorker } from "./ImportWorker.js"
import { JobWorker } from "./JobWorker.js"
import { RecentLists } from "./RecentLists.js"
import { Segments } from "./Segments.js"
import { Sends } from "./Sends.js"
import { SubscriberActions } from "./SubscriberActions.js"
import { SubscriberCriteriaResolver } from "./SubscriberCriteriaResolver.js"
import { SubscriberImports } from "./SubscriberImports.js"
import { Subscribers } from "./Subscribers.js"
import { SubscriberTags } from "./SubscriberTags.js"
import { Suppressions } from "./Suppressions.js"
import { Tags } from "./Tags.js"
import { Templates } from "./Templates.js"
import { Tokens } from "./Tokens.js"
import { Tracking } from "./Tracking.js"
import { UrlSigner } from "./UrlSigner.js"
import { WebViews } from "./WebViews.js"
import type { TransactionalMailRepository } from "../transactional/TransactionalMailRepository.js"
import type { TransactionalTemplateRepository } from "../transactional/TransactionalTemplateRepository.js"
import { TransactionalDelivery } from "../transactional/TransactionalDelivery.js"
import { TransactionalMails } from "../transactional/TransactionalMails.js"
import { TransactionalTemplates } from "../transactional/TransactionalTemplates.js"
import { TransactionalWakeup } from "../transactional/TransactionalWakeup.js"
import { FeedbackIntake } from "../feedback/FeedbackIntake.js"
import { ProviderFeedback } from "../feedback/ProviderFeedback.js"
import type { AutomationMailRepository } from "../automations/AutomationMailRepository.js"
import { AutomationMailDelivery } from "../automations/AutomationMailDelivery.js"
import { AutomationMails } from "../automations/AutomationMails.js"
import { AutomationMailTestMails } from "../automations/AutomationMailTestMails.js"
import { AutomationMailWakeup } from "../automations/AutomationMailWakeup.js"
import { SignalingTransactor } from "./SignalingTransactor.js"
import { WorkSignal } from "./WorkSignal.js"

/** Every storage port a Mailroom store provides. */
export type Storage =
  | TemplateRepository
  | EmailListRepository
  | SuppressionRepository
  | ApiTokenRepository
  | TagRepository
  | SegmentRepository
  | SubscriberRepository
  | JobQueue
  | CampaignRepository
  | SendRepository
  | CampaignLinkRepository
  | SettingsRepository
  | TrackingRepository
  | RateBudget
  | SubscriberImportRepository
  | ImportBatchRepository
  | TransactionalTemplateRepository
  | TransactionalMailRepository
  | EventOutbox
  | WebhookRepository
  | WebhookDeliveryRepository
  | AutomationRepository
  | AutomationRunRepository
  | AutomationMailRepository
  | QueueDepths
  | EngagementHistory
  | Transactor

/** Every use case of Mailroom. */
export type Mailroom =
  | Templates
  | EmailLists
  | Suppressions
  | Tokens
  | Tags
  | Segments
  | Subscribers
  | SubscriberActions
  | JobWorker
  | Campaigns
  | CampaignActions
  | CampaignDelivery
  | Sends
  | UrlSigner
  | PublicLinks
  | Tracking
  | WebViews
  | CampaignPreviews
  | EngagementReports
  | CampaignStatistics
  | SubscriberImports
  | ImportWorker
  | TransactionalTemplates
  | TransactionalMails
  | TransactionalDelivery
  | EventConsumers
  | EventRetention
  | Webhooks
  | ProviderFeedback
  | Automations
  | AutomationMails
  | AutomationMailDelivery
  | AutomationMailWakeup
  | WorkSignal

const support = Layer.mergeAll(
  FeedbackIntake.Default,
  ConfirmationMails.Default,
  SubscriberTags.Default,
  SubscriberCriteriaResolver.Default,
  CampaignTestMails.Default,
  AutomationMailTestMails.Default,
  // one for EmailLists, which forgets, and Subscribers, which remembers
  RecentLists.Default
)

/** All use cases, given a store (MemoryStorage, SqliteStorage or PostgresStorage), a Mailer and a CsvParser. */
export const Mailroom: Layer.Layer<Mailroom, never, Storage | Mailer | CsvParser> = Layer.mergeAll(
  Templates.Default,
  EmailLists.Default,
  Suppressions.Default,
  Tokens.Default,
  Tags.Default,
  Segments.Default,
  Subscribers.Default,
  SubscriberActions.Default,
  JobWorker.Default,
  Campaigns.Default,
  CampaignActions.Default,
  Sends.Default,
  Tracking.Default,
  WebViews.Default,
  CampaignPreviews.Default,
  EngagementReports.Default,
  CampaignStatistics.Default,
  SubscriberImports.Default,
  ImportWorker.Default,
  TransactionalTemplates.Default,
  TransactionalMails.Default,
  TransactionalDelivery.Default,
  EventConsumers.Default,
  EventRetention.Default,
  Webhooks.Default,
  ProviderFeedback.Default,
  Automations.Default.pipe(Layer.provide(AutomationEntry.Default)),
  AutomationMails.Default,
  AutomationMailDelivery.Default,
  CampaignDelivery.Default.pipe(Layer.provide(CampaignActions.Default), Layer.provide(CampaignSender.Default))
).pipe(
  Layer.provide(support),
  Layer.provide(BouncePolicy.Default),
  Layer.provide(TransactionalWakeup.Default),
  Layer.provideMerge(AutomationMailWakeup.Default),
  Layer.provideMerge(Layer.mergeAll(UrlSigner.Default, PublicLinks.Default)),
  // use cases commit through the signaling Transactor, so that idle workers polling slowly look again at once
  Layer.provide(SignalingTransactor),
  Layer.provideMerge(WorkSignal.Default)
)

/** Outgoing webhook delivery (the dispatcher and the senders), given a store and the HTTP adapter's payloads and transport. */
export const MailroomWebhooks: Layer.Layer<WebhookDispatcher | WebhookSender, never, Storage | WebhookPayloads | WebhookTransport> =
  Layer.mergeAll(WebhookDispatcher.Default, WebhookSender.Default).pipe(Layer.provide(EventConsumers.Default), Layer.provide(MailSending.Default))

/**
 * Automation scheduling (the runner and the triggers), given a store, the Mailroom use cases it acts through and a
 * WebhookTransport for webhook actions.
 */
export const MailroomAutomations: Layer.Layer<
  AutomationRunner | AutomationTriggers,
  never,
  Storage | WebhookTransport | Subscribers | SubscriberActions | AutomationMailWakeup
> = Layer.mergeAll(AutomationRunner.Default, AutomationTriggers.Default).pipe(
  Layer.provide(StepEffects.Default),
  Layer.provide(Layer.mergeAll(AutomationEntry.Default, EventConsumers.Default, SubscriberTags.Default))
)
