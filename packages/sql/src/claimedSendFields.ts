import type { ClaimedSend } from "@mailroom/core"
import type { LeasedSend } from "./leaseSends.js"

/** The fields every claimed send has, from its leased row (its subscriber left to the caller). */
export const claimedSendFields = (row: LeasedSend): Omit<ClaimedSend, "subscriber"> => ({
  id: row.id as ClaimedSend["id"],
  uuid: row.uuid as ClaimedSend["uuid"],
  email: row.email,
  attempts: Number(row.attempts),
  deferredSince: row.deferredSince === null ? null : new Date(row.deferredSince)
})
