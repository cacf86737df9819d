import { Schema } from "effect"
import { EmailListId, TagId, TagUuid } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

/** Who made a tag: `default` for user tags, `mailcoach` for system tags (e.g. `campaign-<uuid>-opened`). */
export const TagType = Schema.Literal("default", "mailcoach")
/** @since 0.1.0 */
export type TagType = typeof TagType.Type

/** A label on subscribers of one list; names are unique per list, compared case-insensitively. */
export class Tag extends Schema.Class<Tag>("Tag")({
  id: TagId,
  uuid: TagUuid,
  emailListId: EmailListId,
  name: Schema.String,
  type: TagType,
  visibleInPreferences: Schema.Boolean,
  subscriberCount: Schema.Int,
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {}

/** The canonical form of a tag name for lookups: trimmed and lower-cased. */
export const tagKey = (name: string): string => name.trim().toLowerCase()

/** Orders tag names as the stores do: by their key, then by the name itself (code unit order). */
export const compareTagNames = (a: string, b: string): number => {
  const [ka, kb] = [tagKey(a), tagKey(b)]
  return ka < kb ? -1 : ka > kb ? 1 : a < b ? -1 : a > b ? 1 : 0
}
