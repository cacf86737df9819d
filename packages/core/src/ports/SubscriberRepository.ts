import { Context, type Effect, type Option } from "effect"
import type { Page } from "../domain/CollectionQuery.js"
import type { EmailListId, SubscriberId, SubscriberUuid, TagId } from "../domain/Ids.js"
import type { Subscriber } from "../domain/Subscriber.js"
import type { TagRef } from "../domain/Tag.js"
import type { SubscriberCriteria, SubscriberPageQuery } from "../domain/SubscriberCriteria.js"

/** A subscriber before the store has given it an id (tags are attached separately). */
export type NewSubscriber = Omit<Subscriber, "id" | "tags">

/** The writable fields of a subscriber. */
export type SubscriberChanges = Pick<
  Subscriber,
  "email" | "firstName" | "lastName" | "extraAttributes" | "subscribedAt" | "unsubscribedAt" | "updatedAt"
>

/**
 * Storage of subscribers. Emails are stored normalized and unique per list. The store keeps the list's
 * per-status counts (`activeSubscribersCount`) and each tag's `subscriberCount` current with every write.
 */
export class SubscriberRepository extends Context.Tag("@mailroom/SubscriberRepository")<SubscriberRepository, {
  /**
   * Inserts the subscriber with its `subscriber.created` event and its list's count, and attaches `tags` (tags of its
   * list, each once) with their `tag.added` events (by tag id, after `subscriber.created`) and counts; none when the
   * list already has that email. Atomic on its own: outside a transaction all of it is committed together.
   */
  readonly insert: (subscriber: NewSubscriber, tags?: ReadonlyArray<TagRef>) => Effect.Effect<Option.Option<Subscriber>>
  /**
   * Writes the changes if the subscriber still has `previous`'s status (none otherwise, so a concurrent
   * status change is never counted twice).
   */
  readonly update: (previous: Subscriber, changes: SubscriberChanges) => Effect.Effect<Option.Option<Subscriber>>
  readonly findById: (id: SubscriberId) => Effect.Effect<Option.Option<Subscriber>>
  readonly findByUuid: (uuid: SubscriberUuid) => Effect.Effect<Option.Option<Subscriber>>
  readonly findByEmail: (emailListId: EmailListId, email: string) => Effect.Effect<Option.Option<Subscriber>>
  /** Every list's subscriber with this (normalized) address. */
  readonly findAllByEmail: (email: string) => Effect.Effect<ReadonlyArray<Subscriber>>
  /** Deletes the subscriber with its tag links and its sends (with their click rows; campaign counters keep). */
  readonly delete: (id: SubscriberId) => Effect.Effect<boolean>
  /** Attaches tags (already attached ones are kept once). */
  readonly addTags: (id: SubscriberId, tagIds: ReadonlyArray<TagId>) => Effect.Effect<void>
  /** Detaches tags (tags not attached are ignored). */
  readonly removeTags: (id: SubscriberId, tagIds: ReadonlyArray<TagId>) => Effect.Effect<void>
  /** Detaches `remove` and attaches `add` in one step (`tag.removed` events before `tag.added`). */
  readonly changeTags: (
    id: SubscriberId,
    change: { readonly add: ReadonlyArray<TagRef>; readonly remove: ReadonlyArray<TagRef> }
  ) => Effect.Effect<void>
  /** The ids of the subscriber's tags. */
  readonly tagIds: (id: SubscriberId) => Effect.Effect<ReadonlyArray<TagId>>
  readonly page: (query: SubscriberPageQuery) => Effect.Effect<Page<Subscriber>>
  readonly count: (criteria: SubscriberCriteria) => Effect.Effect<number>
}>() {}
