import { formatTimestamp, type ListedSend } from "@mailroom/core"
import { Schema } from "effect"

const text = Schema.NullOr(Schema.String)
const stamp = (date: Date | null) => (date === null ? null : formatTimestamp(date))

/** A send as the API returns it. */
export const SendResource = Schema.Struct({
  uuid: Schema.UUID,
  transport_message_id: text,
  campaign_uuid: text,
  automation_mail_uuid: text,
  transactional_mail_log_item_uuid: text,
  subscriber_uuid: text,
  subscriber_email: Schema.String,
  sent_at: text,
  failed_at: text,
  failure_reason: text,
  /** The connection was lost after the mail was handed over: it may not have arrived, and it is not sent again. */
  delivery_uncertain: Schema.Boolean,
  open_count: Schema.NullOr(Schema.Int),
  click_count: Schema.NullOr(Schema.Int),
  first_opened_at: text,
  last_opened_at: text,
  first_clicked_at: text,
  last_clicked_at: text,
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "Send" })

/** Renders a send. */
export const toSendResource = (
  { automationMailUuid, campaignUuid, send, subscriberUuid, transactionalMailUuid }: ListedSend
): typeof SendResource.Type => ({
  uuid: send.uuid,
  transport_message_id: send.transportMessageId,
  campaign_uuid: campaignUuid,
  automation_mail_uuid: automationMailUuid,
  transactional_mail_log_item_uuid: transactionalMailUuid,
  subscriber_uuid: subscriberUuid,
  subscriber_email: send.email,
  sent_at: stamp(send.sentAt),
  failed_at: stamp(send.failedAt),
  failure_reason: send.failureReason,
  delivery_uncertain: send.deliveryUncertain,
  open_count: send.openCount,
  click_count: send.clickCount,
  first_opened_at: stamp(send.firstOpenedAt),
  last_opened_at: stamp(send.lastOpenedAt),
  first_clicked_at: stamp(send.firstClickedAt),
  last_clicked_at: stamp(send.lastClickedAt),
  created_at: formatTimestamp(send.createdAt),
  updated_at: formatTimestamp(send.updatedAt)
})
