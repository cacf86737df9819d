import { Send } from "../../domain/Send.js"
import type { MemoryTables } from "./MemoryState.js"

/** A new send row as the stores create one: pending, unleased, never tried, nothing counted. */
export const pendingSend = (
  fields: Pick<Send, "id" | "uuid" | "campaignId" | "transactionalMailId" | "subscriberId" | "email"> & Partial<Pick<Send, "automationMailId">>,
  at: Date
): MemoryTables["sends"] extends Map<number, infer Row> ? Row : never => ({
  lockedUntil: null,
  leaseOwner: null,
  retryAt: null,
  deferredSince: null,
  send: new Send({
    automationMailId: null,
    ...fields,
    transportMessageId: null,
    sentAt: null,
    failedAt: null,
    failureReason: null,
    attempts: 0,
    deliveryUncertain: false,
    openCount: 0,
    clickCount: 0,
    firstOpenedAt: null,
    lastOpenedAt: null,
    firstClickedAt: null,
    lastClickedAt: null,
    createdAt: at,
    updatedAt: at
  })
})
