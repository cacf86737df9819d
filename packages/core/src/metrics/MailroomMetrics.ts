import { Metric } from "effect"
import type { DeliveryResult } from "../ports/SendRepository.js"

/** What a mail was: a campaign's, an automation's, a transactional one, a confirmation or a test mail. */
export type MailKind = "campaign" | "automation" | "transactional" | "confirmation" | "test"

const KINDS: ReadonlyArray<MailKind> = ["campaign", "automation", "transactional", "confirmation", "test"]

const byKind = (name: string, description: string) => {
  const counter = Metric.counter(name, { description, incremental: true })
  return Object.fromEntries(KINDS.map((kind) => [kind, Metric.tagged(counter, "kind", kind)])) as Record<MailKind, typeof counter>
}

const byOutcome = <O extends string>(name: string, description: string, outcomes: ReadonlyArray<O>) => {
  const counter = Metric.counter(name, { description, incremental: true })
  return Object.fromEntries(outcomes.map((outcome) => [outcome, Metric.tagged(counter, "outcome", outcome)])) as Record<O, typeof counter>
}

/**
 * Mailroom's counters, in Effect's metric registry (no exporter needed to embed the library; the server renders them
 * for Prometheus). Updated synchronously: the delivery path counts thousands of mails a second.
 */
export const MailroomMetrics = {
  /** Mails handed to the transport and accepted (an unknown outcome counts as sent, as it is recorded), by kind. */
  mailsSent: byKind("mailroom_mails_sent_total", "Mails handed to the transport and accepted, by kind"),
  /** Mails that failed for good (refused, given up after retries, or skipped before sending), by kind. */
  mailsFailed: byKind("mailroom_mails_failed_total", "Mails that failed for good, by kind"),
  /** Temporary failures that were scheduled for another try, by kind. */
  mailsRetried: byKind("mailroom_mails_retried_total", "Temporary mail failures scheduled for another try, by kind"),
  /** Data rows of subscriber imports written, by outcome (imported, rejected). */
  importRows: byOutcome("mailroom_import_rows_total", "Subscriber import rows processed, by outcome", ["imported", "rejected"]),
  /** Webhook delivery attempts, by outcome (delivered: a 2xx answer; failed: anything else, retried on schedule). */
  webhookDeliveries: byOutcome("mailroom_webhook_deliveries_total", "Webhook delivery attempts, by outcome", ["delivered", "failed"]),

  /** Counts one mail's outcome (as recorded on its send) under its kind. */
  countMail: (kind: MailKind, result: DeliveryResult["_tag"]): void => {
    const counter = result === "Sent" ? MailroomMetrics.mailsSent : result === "Failed" ? MailroomMetrics.mailsFailed : MailroomMetrics.mailsRetried
    counter[kind].unsafeUpdate(1, [])
  }
}
