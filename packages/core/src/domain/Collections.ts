import { type CollectionQuery, collectionSpec } from "./CollectionQuery.js"
import { SendStatus } from "./SendStatus.js"

/** Templates: sort by name (default) or updated_at; fuzzy search on name. */
export const TemplateCollection = collectionSpec({
  sorts: ["name", "updated_at"],
  defaultSort: "name",
  filters: ["search"],
  includes: []
})
/** A query over templates. */
export type TemplateQuery = CollectionQuery<"name" | "updated_at", "search">

/** Email lists: sort by name (default), created_at or active_subscribers_count; search or exact name. */
export const EmailListCollection = collectionSpec({
  sorts: ["name", "created_at", "active_subscribers_count"],
  defaultSort: "name",
  filters: ["search", "name"],
  includes: []
})
/** A query over email lists. */
export type EmailListQuery = CollectionQuery<"name" | "created_at" | "active_subscribers_count", "search" | "name">

/** Suppressions: newest first by default; fuzzy search on email, exact reason. */
export const SuppressionCollection = collectionSpec({
  sorts: ["created_at"],
  defaultSort: "-created_at",
  filters: ["search", "reason"],
  includes: []
})
/** A query over suppressions. */
export type SuppressionQuery = CollectionQuery<"created_at", "search" | "reason">

/** Tags of a list: sort by name (default), updated_at, subscriber_count or visible_in_preferences. */
export const TagCollection = collectionSpec({
  sorts: ["name", "updated_at", "subscriber_count", "visible_in_preferences"],
  defaultSort: "name",
  filters: ["search", "type"],
  includes: ["emailList"]
})
/** A query over a list's tags. */
export type TagQuery = CollectionQuery<
  "name" | "updated_at" | "subscriber_count" | "visible_in_preferences",
  "search" | "type",
  "emailList"
>

/** Segments of a list: sort by name (default) or created_at. */
export const SegmentCollection = collectionSpec({
  sorts: ["name", "created_at"],
  defaultSort: "name",
  filters: ["search"],
  includes: ["emailList"]
})
/** A query over a list's segments. */
export type SegmentQuery = CollectionQuery<"name" | "created_at", "search", "emailList">

/** The sort keys of a list's subscribers. */
export type SubscriberSort =
  | "created_at"
  | "updated_at"
  | "subscribed_at"
  | "unsubscribed_at"
  | "email"
  | "first_name"
  | "last_name"
  | "id"

/** Subscribers of a list: newest first by default (most recently unsubscribed first when filtering those). */
export const SubscriberCollection = collectionSpec({
  sorts: ["created_at", "updated_at", "subscribed_at", "unsubscribed_at", "email", "first_name", "last_name", "id"],
  defaultSort: "-created_at",
  filters: ["email", "status", "search", "tags", "tagType", "segment_uuid"],
  includes: []
})
/** A query over a list's subscribers, as the client wrote it. */
export type SubscriberQuery = CollectionQuery<
  SubscriberSort,
  "email" | "status" | "search" | "tags" | "tagType" | "segment_uuid"
>

/** The subscriber collection for a status filter: unsubscribed ones default to most recently unsubscribed first. */
export const subscriberCollectionFor = (status: string | undefined) =>
  status?.trim().toLowerCase() === "unsubscribed"
    ? { ...SubscriberCollection, defaultSort: "-unsubscribed_at" }
    : SubscriberCollection

/** The sort keys of campaigns. */
export type CampaignSort =
  | "name"
  | "email_list_id"
  | "unique_open_count"
  | "unique_click_count"
  | "unsubscribe_rate"
  | "sent_to_number_of_subscribers"
  | "sent"

/** Campaigns: unscheduled drafts first, then by schedule, send or update time, newest first. */
export const CampaignCollection = collectionSpec({
  sorts: [
    "name",
    "email_list_id",
    "unique_open_count",
    "unique_click_count",
    "unsubscribe_rate",
    "sent_to_number_of_subscribers",
    "sent"
  ],
  defaultSort: "-sent",
  filters: ["search", "status", "email_list_id", "emailList.uuid", "contentItem.template.uuid"],
  includes: []
})
/** A query over campaigns. */
export type CampaignQuery = CollectionQuery<
  CampaignSort,
  "search" | "status" | "email_list_id" | "emailList.uuid" | "contentItem.template.uuid"
>

/** Sends: most recently sent first; filter by subscriber, campaign, automation mail or transactional mail uuid, or status. */
export const SendCollection = collectionSpec({
  sorts: ["sent_at"],
  defaultSort: "-sent_at",
  filters: ["subscriber_uuid", "campaign_uuid", "automation_mail_uuid", "transactional_mail_log_item_uuid", "status"],
  includes: [],
  values: { status: SendStatus.literals }
})
/** A query over sends. */
export type SendQuery = CollectionQuery<
  "sent_at",
  "subscriber_uuid" | "campaign_uuid" | "automation_mail_uuid" | "transactional_mail_log_item_uuid" | "status"
>

/** Opens of a campaign, one row per subscriber: most recent first opens first. */
export const OpenCollection = collectionSpec({
  sorts: ["email", "open_count", "first_opened_at", "last_opened_at"],
  defaultSort: "-first_opened_at",
  filters: ["search"],
  includes: []
})
/** A query over a campaign's opens. */
export type OpenQuery = CollectionQuery<"email" | "open_count" | "first_opened_at" | "last_opened_at", "search">

/** Tracked links of a campaign with their clicks: most unique clicks first. */
export const ClickCollection = collectionSpec({
  sorts: ["unique_click_count", "click_count"],
  defaultSort: "-unique_click_count",
  filters: ["search"],
  includes: []
})
/** A query over a campaign's clicks. */
export type ClickQuery = CollectionQuery<"unique_click_count" | "click_count", "search">

/** Unsubscribes attributed to a campaign: newest first. */
export const UnsubscribeCollection = collectionSpec({
  sorts: ["created_at"],
  defaultSort: "-created_at",
  filters: ["search"],
  includes: []
})
/** A query over a campaign's unsubscribes. */
export type UnsubscribeQuery = CollectionQuery<"created_at", "search">

/** Bounces of a campaign, one row per subscriber and type: newest first. */
export const BounceCollection = collectionSpec({
  sorts: ["email", "bounce_count", "created_at"],
  defaultSort: "-created_at",
  filters: ["search", "type"],
  includes: []
})
/** A query over a campaign's bounces. */
export type BounceQuery = CollectionQuery<"email" | "bounce_count" | "created_at", "search" | "type">

/** Subscriber imports: newest first; filter by status or list id. */
export const SubscriberImportCollection = collectionSpec({
  sorts: ["created_at", "updated_at"],
  defaultSort: "-created_at",
  filters: ["status", "email_list_id"],
  includes: []
})
/** A query over subscriber imports. */
export type SubscriberImportQuery = CollectionQuery<"created_at" | "updated_at", "status" | "email_list_id">

/** The rows an import refused, in CSV order. */
export const ImportRowErrorCollection = collectionSpec({
  sorts: ["line"],
  defaultSort: "line",
  filters: [],
  includes: []
})
/** A query over an import's refused rows. */
export type ImportRowErrorQuery = CollectionQuery<"line", never>

/** API tokens: oldest first by default. */
export const TokenCollection = collectionSpec({
  sorts: ["created_at", "name"],
  defaultSort: "created_at",
  filters: [],
  includes: []
})
/** A query over API tokens. */
export type TokenQuery = CollectionQuery<"created_at" | "name", never>
