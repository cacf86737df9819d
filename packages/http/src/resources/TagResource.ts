import { type EmailList, formatTimestamp, type Tag, TagType } from "@mailroom/core"
import { Schema } from "effect"
import { EmailListResource, toEmailListResource } from "./EmailListResource.js"

/** A tag as the API returns it; `email_list` only with `include=emailList`. */
export const TagResource = Schema.Struct({
  uuid: Schema.UUID,
  name: Schema.String,
  email_list_uuid: Schema.UUID,
  type: TagType,
  visible_in_preferences: Schema.Boolean,
  subscriber_count: Schema.Int,
  email_list: Schema.optional(EmailListResource),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "Tag" })

/** Renders a tag of `list`, embedding the list when asked to. */
export const toTagResource = (list: EmailList, includeList = false) => (tag: Tag): typeof TagResource.Type => ({
  uuid: tag.uuid,
  name: tag.name,
  email_list_uuid: list.uuid,
  type: tag.type,
  visible_in_preferences: tag.visibleInPreferences,
  subscriber_count: tag.subscriberCount,
  ...(includeList ? { email_list: toEmailListResource(list) } : {}),
  created_at: formatTimestamp(tag.createdAt),
  updated_at: formatTimestamp(tag.updatedAt)
})
