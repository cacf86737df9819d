import { Schema } from "effect"
import type { Send } from "./Send.js"

/** Where a send stands: `pending` until its mail went out (`sent`) or it failed for good (`failed`); then it stays. */
export const SendStatus = Schema.Literal("pending", "sent", "failed")
/** @since 0.3.0 */
export type SendStatus = typeof SendStatus.Type

/** A send's status from its times: sent once it has `sentAt`, failed with `failedAt` alone, else pending. */
export const sendStatus = (send: Pick<Send, "sentAt" | "failedAt">): SendStatus =>
  send.sentAt !== null ? "sent" : send.failedAt !== null ? "failed" : "pending"
