import { Context, type Effect, type Option } from "effect"
import type { Page } from "../domain/CollectionQuery.js"
import type { SegmentQuery } from "../domain/Collections.js"
import type { EmailListId, SegmentId, SegmentUuid, TagId } from "../domain/Ids.js"
import type { Segment } from "../domain/Segment.js"

/** A segment's writable fields, with its tags by id. */
export interface SegmentFields {
  readonly name: string
  readonly positiveTagIds: ReadonlyArray<TagId>
  readonly negativeTagIds: ReadonlyArray<TagId>
  readonly allPositiveTagsRequired: boolean
  readonly allNegativeTagsRequired: boolean
  readonly updatedAt: Date
}

/** A segment before the store has given it an id. */
export interface NewSegment extends SegmentFields {
  readonly uuid: SegmentUuid
  readonly emailListId: EmailListId
  readonly createdAt: Date
}

/** Storage of segments; a segment's tags are returned with their current names. */
export class SegmentRepository extends Context.Tag("@mailroom/SegmentRepository")<SegmentRepository, {
  readonly insert: (segment: NewSegment) => Effect.Effect<Segment>
  readonly update: (id: SegmentId, fields: SegmentFields) => Effect.Effect<Option.Option<Segment>>
  readonly findById: (id: SegmentId) => Effect.Effect<Option.Option<Segment>>
  readonly findByUuid: (uuid: SegmentUuid) => Effect.Effect<Option.Option<Segment>>
  readonly delete: (id: SegmentId) => Effect.Effect<boolean>
  readonly list: (emailListId: EmailListId, query: SegmentQuery) => Effect.Effect<Page<Segment>>
}>() {}
