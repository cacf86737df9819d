import { describe } from "@effect/vitest"
import { apiTokenContract } from "./suite/apiTokenContract.js"
import { automationContract } from "./suite/automationContract.js"
import { automationRunContract } from "./suite/automationRunContract.js"
import { automationMailContract } from "./suite/automationMailContract.js"
import { campaignContract } from "./suite/campaignContract.js"
import { campaignLinkContract } from "./suite/campaignLinkContract.js"
import { campaignQueryContract } from "./suite/campaignQueryContract.js"
import { emailListContract } from "./suite/emailListContract.js"
import type { MakeStorage } from "./suite/fixtures.js"
import { eventsContract } from "./suite/eventsContract.js"
import { webhookContract } from "./suite/webhookContract.js"
import { importBatchContract } from "./suite/importBatchContract.js"
import { importBatchMixedContract } from "./suite/importBatchMixedContract.js"
import { importBatchRulesContract } from "./suite/importBatchRulesContract.js"
import { importUploadContract } from "./suite/importUploadContract.js"
import { jobQueueContract } from "./suite/jobQueueContract.js"
import { queueDepthsContract } from "./suite/queueDepthsContract.js"
import { engagementHistoryContract } from "./suite/engagementHistoryContract.js"
import { segmentContract } from "./suite/segmentContract.js"
import { sendContract } from "./suite/sendContract.js"
import { sendDeliveryContract } from "./suite/sendDeliveryContract.js"
import { sendQueryContract } from "./suite/sendQueryContract.js"
import { settingsContract } from "./suite/settingsContract.js"
import { subscriberContract } from "./suite/subscriberContract.js"
import { subscriberImportContract } from "./suite/subscriberImportContract.js"
import { subscriberQueryContract } from "./suite/subscriberQueryContract.js"
import { suppressionContract } from "./suite/suppressionContract.js"
import { tagContract } from "./suite/tagContract.js"
import { templateContract } from "./suite/templateContract.js"
import { trackingContract } from "./suite/trackingContract.js"
import { trackingQueryContract } from "./suite/trackingQueryContract.js"
import { transactionalContract } from "./suite/transactionalContract.js"
import { transactorContract } from "./suite/transactorContract.js"

export type { MakeStorage } from "./suite/fixtures.js"
export { aSubscriber, aTag, anEmailList } from "./suite/fixtures.js"

/** The contracts of import batches: plain, with rules, and mixed. */
const importBatchContracts = (makeStorage: MakeStorage) => {
  importBatchContract(makeStorage)
  importBatchRulesContract(makeStorage)
  importBatchMixedContract(makeStorage)
}

/** The storage contract every store must pass; `makeStorage` builds a fresh, empty store per test. */
export const StorageSuite = (name: string, makeStorage: MakeStorage) =>
  describe(`${name} storage contract`, () => {
    templateContract(makeStorage)
    emailListContract(makeStorage)
    suppressionContract(makeStorage)
    apiTokenContract(makeStorage)
    tagContract(makeStorage)
    segmentContract(makeStorage)
    subscriberContract(makeStorage)
    subscriberQueryContract(makeStorage)
    jobQueueContract(makeStorage)
    transactorContract(makeStorage)
    campaignContract(makeStorage)
    campaignQueryContract(makeStorage)
    sendContract(makeStorage)
    sendDeliveryContract(makeStorage)
    sendQueryContract(makeStorage)
    campaignLinkContract(makeStorage)
    transactionalContract(makeStorage)
    automationMailContract(makeStorage)
    trackingContract(makeStorage)
    trackingQueryContract(makeStorage)
    settingsContract(makeStorage)
    subscriberImportContract(makeStorage)
    importUploadContract(makeStorage)
    importBatchContracts(makeStorage)
    eventsContract(makeStorage)
    webhookContract(makeStorage)
    automationContract(makeStorage)
    automationRunContract(makeStorage)
    queueDepthsContract(makeStorage)
    engagementHistoryContract(makeStorage)
  })

/** The import batch contracts alone: for a store's second write path (such as portable SQL beside COPY). */
export const ImportBatchSuite = (name: string, makeStorage: MakeStorage) =>
  describe(`${name} import batch contract`, () => importBatchContracts(makeStorage))
