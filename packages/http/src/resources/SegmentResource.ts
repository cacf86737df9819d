import { type EmailList, formatTimestamp, type Segment } from "@mailroom/core"
import { Schema } from "effect"
import { EmailListResource, toEmailListResource } from "./EmailListResource.js"

/** A segment as the API returns it, with its rules; `email_list` only with `include=emailList`. */
export const SegmentResource = Schema.Struct({
  uuid: Schema.UUID,
  name: Schema.String,
  email_list_uuid: Schema.UUID,
  positive_tags: Schema.Array(Schema.String),
  negative_tags: Schema.Array(Schema.String),
  all_positive_tags_required: Schema.Boolean,
  all_negative_tags_required: Schema.Boolean,
  email_list: Schema.optional(EmailListResource),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "Segment" })

/** Renders a segment of `list`, embedding the list when asked to. */
export const toSegmentResource = (list: EmailList, includeList = false) =>
(segment: Segment): typeof SegmentResource.Type => ({
  uuid: segment.uuid,
  name: segment.name,
  email_list_uuid: list.uuid,
  positive_tags: segment.positiveTags.map((tag) => tag.name),
  negative_tags: segment.negativeTags.map((tag) => tag.name),
  all_positive_tags_required: segment.allPositiveTagsRequired,
  all_negative_tags_required: segment.allNegativeTagsRequired,
  ...(includeList ? { email_list: toEmailListResource(list) } : {}),
  created_at: formatTimestamp(segment.createdAt),
  updated_at: formatTimestamp(segment.updatedAt)
})
