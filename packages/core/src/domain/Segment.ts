import { Schema } from "effect"
import { EmailListId, SegmentId, SegmentUuid, TagId } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

/** A tag a segment refers to: its id (what membership uses) and its current name (what clients see). */
export const SegmentTag = Schema.Struct({ id: TagId, name: Schema.String })
/** @since 0.1.0 */
export type SegmentTag = typeof SegmentTag.Type

/** A tag-based part of one list: subscribed members matching the positive and negative tag rules. */
export class Segment extends Schema.Class<Segment>("Segment")({
  id: SegmentId,
  uuid: SegmentUuid,
  emailListId: EmailListId,
  name: Schema.String,
  positiveTags: Schema.Array(SegmentTag),
  negativeTags: Schema.Array(SegmentTag),
  allPositiveTagsRequired: Schema.Boolean,
  allNegativeTagsRequired: Schema.Boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {}
