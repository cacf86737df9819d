import { AutomationRepository } from "../automations/AutomationRepository.js"
import { AutomationRunRepository } from "../automations/AutomationRunRepository.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { makeMemoryAutomationRepository } from "./memory/MemoryAutomationRepository.js"
import { makeMemoryAutomationRunRepository } from "./memory/MemoryAutomationRunRepository.js"
import { makeMemoryEventOutbox } from "./memory/MemoryEventOutbox.js"
import { makeMemoryWebhookDeliveryRepository } from "./memory/MemoryWebhookDeliveryRepository.js"
import { makeMemoryWebhookRepository } from "./memory/MemoryWebhookRepository.js"
import { WebhookDeliveryRepository } from "../webhooks/WebhookDeliveryRepository.js"
import { WebhookRepository } from "../webhooks/WebhookRepository.js"
import { Context, Effect, Layer } from "effect"
import { ApiTokenRepository } from "../ports/ApiTokenRepository.js"
import { CampaignLinkRepository } from "../ports/CampaignLinkRepository.js"
import { CampaignRepository } from "../ports/CampaignRepository.js"
import { RateBudget } from "../ports/RateBudget.js"
import { SendRepository } from "../ports/SendRepository.js"
import { SettingsRepository } from "../ports/SettingsRepository.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { ImportBatchRepository } from "../ports/ImportBatchRepository.js"
import { JobQueue } from "../ports/JobQueue.js"
import { SegmentRepository } from "../ports/SegmentRepository.js"
import { SubscriberImportRepository } from "../ports/SubscriberImportRepository.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { SuppressionRepository } from "../ports/SuppressionRepository.js"
import { TagRepository } from "../ports/TagRepository.js"
import { TemplateRepository } from "../ports/TemplateRepository.js"
import { TrackingRepository } from "../ports/TrackingRepository.js"
import { Transactor } from "../ports/Transactor.js"
import type { Storage } from "../usecases/Mailroom.js"
import { makeMemoryApiTokenRepository } from "./memory/MemoryApiTokenRepository.js"
import { makeMemoryCampaignLinkRepository } from "./memory/MemoryCampaignLinkRepository.js"
import { makeMemoryCampaignRepository } from "./memory/MemoryCampaignRepository.js"
import { makeMemoryRateBudget } from "./memory/MemoryRateBudget.js"
import { makeMemorySendRepository } from "./memory/MemorySendRepository.js"
import { makeMemorySettingsRepository } from "./memory/MemorySettingsRepository.js"
import { makeMemoryEmailListRepository } from "./memory/MemoryEmailListRepository.js"
import { makeMemoryImportBatchRepository } from "./memory/MemoryImportBatchRepository.js"
import { makeMemoryJobQueue } from "./memory/MemoryJobQueue.js"
import { makeMemorySegmentRepository } from "./memory/MemorySegmentRepository.js"
import { MemoryState } from "./memory/MemoryState.js"
import { makeMemorySubscriberImportRepository } from "./memory/MemorySubscriberImportRepository.js"
import { makeMemorySubscriberRepository } from "./memory/MemorySubscriberRepository.js"
import { makeMemorySuppressionRepository } from "./memory/MemorySuppressionRepository.js"
import { makeMemoryTagRepository } from "./memory/MemoryTagRepository.js"
import { makeMemoryTemplateRepository } from "./memory/MemoryTemplateRepository.js"
import { makeMemoryTrackingRepository } from "./memory/MemoryTrackingRepository.js"
import { makeMemoryTransactor } from "./memory/MemoryTransactor.js"
import { makeMemoryTransactionalMailRepository } from "./memory/MemoryTransactionalMailRepository.js"
import { makeMemoryTransactionalTemplateRepository } from "./memory/MemoryTransactionalTemplateRepository.js"
import { TransactionalMailRepository } from "../transactional/TransactionalMailRepository.js"
import { TransactionalTemplateRepository } from "../transactional/TransactionalTemplateRepository.js"
import { AutomationMailRepository } from "../automations/AutomationMailRepository.js"
import { makeMemoryAutomationMailRepository } from "./memory/MemoryAutomationMailRepository.js"
import { QueueDepths } from "../ports/QueueDepths.js"
import { makeMemoryQueueDepths } from "./memory/MemoryQueueDepths.js"
import { EngagementHistory } from "../ports/EngagementHistory.js"
import { makeMemoryEngagementHistory } from "./memory/MemoryEngagementHistory.js"

/** Every storage port, in memory: for tests and for embedding without a database. Each build starts empty. */
export const MemoryStorage: Layer.Layer<Storage> = Layer.effectContext(
  Effect.gen(function*() {
    const state = new MemoryState()
    return Context.empty().pipe(
      Context.add(Transactor, yield* makeMemoryTransactor(state)),
      Context.add(TemplateRepository, makeMemoryTemplateRepository(state)),
      Context.add(EmailListRepository, makeMemoryEmailListRepository(state)),
      Context.add(SuppressionRepository, makeMemorySuppressionRepository(state)),
      Context.add(ApiTokenRepository, makeMemoryApiTokenRepository(state)),
      Context.add(TagRepository, makeMemoryTagRepository(state)),
      Context.add(SegmentRepository, makeMemorySegmentRepository(state)),
      Context.add(SubscriberRepository, makeMemorySubscriberRepository(state)),
      Context.add(JobQueue, makeMemoryJobQueue(state)),
      Context.add(CampaignRepository, makeMemoryCampaignRepository(state)),
      Context.add(SendRepository, makeMemorySendRepository(state)),
      Context.add(CampaignLinkRepository, makeMemoryCampaignLinkRepository(state)),
      Context.add(SettingsRepository, makeMemorySettingsRepository(state)),
      Context.add(TrackingRepository, makeMemoryTrackingRepository(state)),
      Context.add(RateBudget, makeMemoryRateBudget()),
      Context.add(SubscriberImportRepository, makeMemorySubscriberImportRepository(state)),
      Context.add(ImportBatchRepository, makeMemoryImportBatchRepository(state)),
      Context.add(TransactionalTemplateRepository, makeMemoryTransactionalTemplateRepository(state))
    ).pipe(
      Context.add(TransactionalMailRepository, makeMemoryTransactionalMailRepository(state)),
      Context.add(EventOutbox, makeMemoryEventOutbox(state)),
      Context.add(WebhookRepository, makeMemoryWebhookRepository(state)),
      Context.add(WebhookDeliveryRepository, makeMemoryWebhookDeliveryRepository(state)),
      Context.add(AutomationRepository, makeMemoryAutomationRepository(state)),
      Context.add(AutomationRunRepository, makeMemoryAutomationRunRepository(state)),
      Context.add(AutomationMailRepository, makeMemoryAutomationMailRepository(state)),
      Context.add(QueueDepths, makeMemoryQueueDepths(state)),
      Context.add(EngagementHistory, makeMemoryEngagementHistory(state))
    )
  })
)
