import type { SqlClient } from "@effect/sql"
import type { ImportBatchRepository, Storage } from "@mailroom/core"
import { Layer } from "effect"
import { LIST_COUNTS } from "./listCounts.js"
import { TAG_COUNTS } from "./moveTagCounts.js"
import { countFolder } from "./sharedCounters.js"
import { MigrationsLive } from "./migrations/migrate.js"
import { SqlApiTokenRepository } from "./repositories/SqlApiTokenRepository.js"
import { SqlCampaignLinkRepository } from "./repositories/SqlCampaignLinkRepository.js"
import { SqlCampaignRepository } from "./repositories/SqlCampaignRepository.js"
import { SqlRateBudget } from "./repositories/SqlRateBudget.js"
import { SqlSendRepository } from "./repositories/SqlSendRepository.js"
import { SqlSettingsRepository } from "./repositories/SqlSettingsRepository.js"
import { SqlTrackingRepository } from "./repositories/SqlTrackingRepository.js"
import { SqlEmailListRepository } from "./repositories/SqlEmailListRepository.js"
import { SqlImportBatchRepository } from "./repositories/SqlImportBatchRepository.js"
import { SqlJobQueue } from "./repositories/SqlJobQueue.js"
import { SqlSegmentRepository } from "./repositories/SqlSegmentRepository.js"
import { SqlSubscriberImportRepository } from "./repositories/SqlSubscriberImportRepository.js"
import { SqlSubscriberRepository } from "./repositories/SqlSubscriberRepository.js"
import { SqlTagRepository } from "./repositories/SqlTagRepository.js"
import { SqlSuppressionRepository } from "./repositories/SqlSuppressionRepository.js"
import { SqlTemplateRepository } from "./repositories/SqlTemplateRepository.js"
import { SqlTransactionalMailRepository } from "./repositories/transactional/SqlTransactionalMailRepository.js"
import { SqlTransactionalTemplateRepository } from "./repositories/transactional/SqlTransactionalTemplateRepository.js"
import { SqlEventOutbox } from "./events/SqlEventOutbox.js"
import { SqlWebhookDeliveryRepository } from "./repositories/webhooks/SqlWebhookDeliveryRepository.js"
import { SqlWebhookRepository } from "./repositories/webhooks/SqlWebhookRepository.js"
import { SqlAutomationRepository } from "./repositories/automations/SqlAutomationRepository.js"
import { SqlAutomationRunRepository } from "./repositories/automations/SqlAutomationRunRepository.js"
import { SqlTransactor } from "./SqlTransactor.js"
import { SqlQueueDepths } from "./repositories/SqlQueueDepths.js"
import { SqlEngagementHistory } from "./repositories/SqlEngagementHistory.js"
import { SqlAutomationMailRepository } from "./repositories/automations/SqlAutomationMailRepository.js"

/**
 * Every storage port over a SqlClient, after bringing the schema up to date; `importBatches` writes import batches
 * (a dialect's own faster way, or SqlImportBatchRepository).
 */
export const sqlStorage = (
  importBatches: Layer.Layer<ImportBatchRepository, never, SqlClient.SqlClient>
): Layer.Layer<Storage, never, SqlClient.SqlClient> => Layer.mergeAll(
  SqlTemplateRepository,
  SqlEmailListRepository,
  SqlSuppressionRepository,
  SqlApiTokenRepository,
  SqlTagRepository,
  SqlSegmentRepository,
  SqlSubscriberRepository,
  SqlJobQueue,
  SqlCampaignRepository,
  SqlSendRepository,
  SqlCampaignLinkRepository,
  SqlSettingsRepository,
  SqlTrackingRepository,
  SqlRateBudget,
  SqlSubscriberImportRepository,
  importBatches,
  SqlTransactionalTemplateRepository,
  SqlTransactionalMailRepository,
  SqlEventOutbox,
  SqlWebhookRepository,
  SqlWebhookDeliveryRepository,
  SqlAutomationRepository,
  SqlAutomationRunRepository,
  SqlAutomationMailRepository,
  SqlQueueDepths,
  SqlEngagementHistory,
  SqlTransactor,
  countFolder([LIST_COUNTS, TAG_COUNTS])
).pipe(Layer.provideMerge(MigrationsLive))

/** Every storage port over a SqlClient in portable SQL, after bringing the schema up to date. */
export const SqlStorage: Layer.Layer<Storage, never, SqlClient.SqlClient> = sqlStorage(SqlImportBatchRepository)
