import { Schema } from "effect"
import { CampaignStatus } from "./CampaignStatus.js"
import { CampaignId, CampaignUuid, EmailListId, SegmentId, TemplateId } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

const OptionalTime = Schema.NullOr(Timestamp)

/** Engagement counters of a campaign, kept current as events arrive. */
export const CampaignCounters = Schema.Struct({
  sentToNumberOfSubscribers: Schema.Int,
  openCount: Schema.Int,
  uniqueOpenCount: Schema.Int,
  clickCount: Schema.Int,
  uniqueClickCount: Schema.Int,
  unsubscribeCount: Schema.Int,
  bounceCount: Schema.Int
})
/** @since 0.1.0 */
export type CampaignCounters = typeof CampaignCounters.Type

/** A mail to (a segment of) a list: content, sender, schedule, status and statistics. */
export class Campaign extends Schema.Class<Campaign>("Campaign")({
  id: CampaignId,
  uuid: CampaignUuid,
  name: Schema.String,
  emailListId: Schema.NullOr(EmailListId),
  templateId: Schema.NullOr(TemplateId),
  segmentId: Schema.NullOr(SegmentId),
  status: CampaignStatus,
  subject: Schema.NullOr(Schema.String),
  html: Schema.NullOr(Schema.String),
  structuredHtml: Schema.NullOr(Schema.String),
  fields: Schema.Record({ key: Schema.String, value: Schema.String }),
  emailHtml: Schema.NullOr(Schema.String),
  webviewHtml: Schema.NullOr(Schema.String),
  mailableClass: Schema.NullOr(Schema.String),
  fromEmail: Schema.NullOr(Schema.String),
  fromName: Schema.NullOr(Schema.String),
  replyToEmail: Schema.NullOr(Schema.String),
  replyToName: Schema.NullOr(Schema.String),
  segmentDescription: Schema.String,
  utmTags: Schema.Boolean,
  /** Mails carry an open pixel. */
  trackOpens: Schema.Boolean,
  /** Links in mails go through click tracking. */
  trackClicks: Schema.Boolean,
  addSubscriberTags: Schema.Boolean,
  addSubscriberLinkTags: Schema.Boolean,
  disableWebview: Schema.Boolean,
  ...CampaignCounters.fields,
  /** The last subscriber id covered while freezing the audience (freezing resumes after it). */
  audienceCursor: Schema.Int,
  /** Set once every recipient has a send row (the audience is frozen). */
  audienceFrozenAt: OptionalTime,
  scheduledAt: OptionalTime,
  sentAt: OptionalTime,
  statisticsCalculatedAt: OptionalTime,
  summaryMailSentAt: OptionalTime,
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {}

/** The part of a rate (basis points: 3 of 5 = 6000), zero when nothing was sent. */
export const basisPoints = (part: number, whole: number): number =>
  whole === 0 ? 0 : Math.round(Number((part / whole).toFixed(4)) * 10_000)
