import { Effect, Option } from "effect"
import type { EmailListId, TagId, TagUuid } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import { Tag, tagKey, type TagRef } from "../../domain/Tag.js"
import { TagRepository } from "../../ports/TagRepository.js"
import { containsIgnoringCase, listPage } from "./listPage.js"
import type { MemoryState } from "./MemoryState.js"

/** TagRepository over the in-memory state; subscriber counts are counted on read. */
export const makeMemoryTagRepository = (state: MemoryState) => {
  const rows = () => state.tables.tags
  const count = (id: number) => {
    let n = 0
    for (const tags of state.tables.subscriberTags.values()) if (tags.has(id)) n++
    return n
  }
  const toTag = (row: ReturnType<typeof rows> extends Map<number, infer R> ? R : never) =>
    new Tag({ ...row, id: row.id as TagId, subscriberCount: count(row.id) })
  const ref = (row: { readonly id: number; readonly name: string; readonly emailListId: number }): TagRef => ({
    id: row.id as TagId,
    name: row.name,
    emailListId: row.emailListId as EmailListId
  })
  const ofList = (emailListId: number) => [...rows().values()].filter((row) => row.emailListId === emailListId)
  const byName = (emailListId: number, name: string) => ofList(emailListId).find((row) => tagKey(row.name) === tagKey(name))
  const find = (predicate: (row: Tag) => boolean) =>
    Effect.sync(() => Option.fromNullable([...rows().values()].map(toTag).find(predicate)))

  return TagRepository.of({
    insertOrGet: (tag) =>
      Effect.sync(() => {
        const existing = byName(tag.emailListId, tag.name)
        if (existing !== undefined) return { tag: toTag(existing), created: false }
        const row = { ...tag, id: state.nextId("tags") }
        rows().set(row.id, row)
        return { tag: toTag(row), created: true }
      }),
    ensure: (emailListId, names, type, at) =>
      Effect.sync(() =>
        names.map((name) => {
          const existing = byName(emailListId, name)
          if (existing !== undefined) return ref(existing)
          const row = {
            id: state.nextId("tags"),
            uuid: newUuid() as TagUuid,
            emailListId: emailListId as EmailListId,
            name: name.trim(),
            type,
            visibleInPreferences: false,
            createdAt: at,
            updatedAt: at
          }
          rows().set(row.id, row)
          return ref(row)
        })
      ),
    refsByName: (emailListId, names) =>
      Effect.sync(() => {
        const keys = new Set(names.map(tagKey))
        return ofList(emailListId).filter((row) => keys.has(tagKey(row.name))).map(ref)
      }),
    update: (id, changes) =>
      Effect.sync(() => {
        const existing = rows().get(id)
        if (existing === undefined) return Option.none()
        const row = { ...existing, ...changes }
        rows().set(id, row)
        return Option.some(toTag(row))
      }),
    findById: (id) => find((tag) => tag.id === id),
    findByUuid: (uuid) => find((tag) => tag.uuid === uuid),
    findByRefs: (emailListId, refs) =>
      Effect.sync(() => {
        const keys = new Set(refs.map(tagKey))
        return ofList(emailListId).filter((row) => keys.has(tagKey(row.name)) || keys.has(row.uuid)).map(toTag)
      }),
    delete: (id) =>
      Effect.sync(() => {
        if (!rows().delete(id)) return false
        for (const [subscriberId, tags] of state.tables.subscriberTags) {
          if (tags.has(id)) state.tables.subscriberTags.set(subscriberId, new Set([...tags].filter((t) => t !== id)))
        }
        for (const segment of state.tables.segments.values()) {
          state.tables.segments.set(segment.id, {
            ...segment,
            positiveTagIds: segment.positiveTagIds.filter((t) => t !== id),
            negativeTagIds: segment.negativeTagIds.filter((t) => t !== id)
          })
        }
        return true
      }),
    list: (emailListId, query) =>
      Effect.sync(() =>
        listPage(ofList(emailListId).map(toTag), query, {
          id: (tag) => tag.id,
          sorts: {
            name: (tag) => tag.name,
            updated_at: (tag) => tag.updatedAt,
            subscriber_count: (tag) => tag.subscriberCount,
            visible_in_preferences: (tag) => tag.visibleInPreferences
          },
          filters: {
            search: (tag, value) => containsIgnoringCase(tag.name, value),
            type: (tag, value) => value !== "default" && value !== "mailcoach" ? true : tag.type === value
          }
        })
      )
  })
}
