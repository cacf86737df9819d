import { Context, type Effect, type Option } from "effect"
import type { Page } from "../domain/CollectionQuery.js"
import type { TagQuery } from "../domain/Collections.js"
import type { EmailListId, TagId, TagUuid } from "../domain/Ids.js"
import type { Tag, TagRef, TagType } from "../domain/Tag.js"

/** A tag before the store has given it an id and a subscriber count. */
export type NewTag = Omit<Tag, "id" | "subscriberCount">

/** Storage of tags. Names are unique per list, case-insensitively; `subscriberCount` is kept by the store. */
export class TagRepository extends Context.Tag("@mailroom/TagRepository")<TagRepository, {
  /** Inserts the tag, or returns the list's tag with the same name (case-insensitive) and `created: false`. */
  readonly insertOrGet: (tag: NewTag) => Effect.Effect<{ readonly tag: Tag; readonly created: boolean }>
  /**
   * The list's tags with these names, the missing ones created with `type`; as references, without the subscriber
   * counts, which a store sums from changes not folded yet (on Postgres a fifth of a tagged sign-up's own CPU).
   */
  readonly ensure: (
    emailListId: EmailListId,
    names: ReadonlyArray<string>,
    type: TagType,
    at: Date
  ) => Effect.Effect<ReadonlyArray<TagRef>>
  /** References to the list's tags with these names (case-insensitive), those that exist; no subscriber counts. */
  readonly refsByName: (emailListId: EmailListId, names: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<TagRef>>
  readonly update: (
    id: TagId,
    changes: { readonly name: string; readonly visibleInPreferences: boolean; readonly updatedAt: Date }
  ) => Effect.Effect<Option.Option<Tag>>
  readonly findById: (id: TagId) => Effect.Effect<Option.Option<Tag>>
  readonly findByUuid: (uuid: TagUuid) => Effect.Effect<Option.Option<Tag>>
  /** The list's tags whose name (case-insensitive) or uuid is among `refs`. */
  readonly findByRefs: (emailListId: EmailListId, refs: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Tag>>
  /** Deletes the tag and detaches it from every subscriber and segment. */
  readonly delete: (id: TagId) => Effect.Effect<boolean>
  readonly list: (emailListId: EmailListId, query: TagQuery) => Effect.Effect<Page<Tag>>
}>() {}
