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

/** A tag as a change of a subscriber's tags names it (its events carry the name): no subscriber count to read. */
export type TagRef = Pick<Tag, "id" | "name" | "emailListId">

/** The canonical form of a tag name for lookups: trimmed and lower-cased. */
export const tagKey = (name: string): string => name.trim().toLowerCase()

/**
 * Orders text by code point, as SQLite's BINARY and Postgres' "C" collation do (UTF-8 byte order). JavaScript's `<`
 * compares UTF-16 units, which puts a character above U+FFFF (a surrogate pair) before U+E000-U+FFFF.
 */
export const compareCodePoints = (a: string, b: string): number => {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    const [pairX, pairY] = [x >= 0xd800 && x <= 0xdfff, y >= 0xd800 && y <= 0xdfff]
    return pairX === pairY ? x - y : pairX ? 1 : -1
  }
  return a.length - b.length
}

/** Orders tag names as the stores do: by their key, then by the name itself (code point order). */
export const compareTagNames = (a: string, b: string): number =>
  compareCodePoints(tagKey(a), tagKey(b)) || compareCodePoints(a, b)
