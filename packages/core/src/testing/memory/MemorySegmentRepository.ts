import { Effect, Option } from "effect"
import type { SegmentId, TagId } from "../../domain/Ids.js"
import { Segment } from "../../domain/Segment.js"
import { compareTagNames } from "../../domain/Tag.js"
import { SegmentRepository } from "../../ports/SegmentRepository.js"
import { containsIgnoringCase, listPage } from "./listPage.js"
import type { MemoryState } from "./MemoryState.js"

type Row = MemoryState["tables"]["segments"] extends Map<number, infer R> ? R : never

/** SegmentRepository over the in-memory state. */
export const makeMemorySegmentRepository = (state: MemoryState) => {
  const rows = () => state.tables.segments
  const tagsOf = (ids: ReadonlyArray<TagId>) =>
    ids.flatMap((id) => {
      const tag = state.tables.tags.get(id)
      return tag === undefined ? [] : [{ id, name: tag.name }]
    }).sort((a, b) => compareTagNames(a.name, b.name))
  const toSegment = ({ negativeTagIds, positiveTagIds, ...row }: Row) =>
    new Segment({
      ...row,
      id: row.id as SegmentId,
      positiveTags: tagsOf(positiveTagIds),
      negativeTags: tagsOf(negativeTagIds)
    })
  const find = (predicate: (row: Row) => boolean) =>
    Effect.sync(() => Option.map(Option.fromNullable([...rows().values()].find(predicate)), toSegment))

  return SegmentRepository.of({
    insert: (segment) =>
      Effect.sync(() => {
        const row = { ...segment, id: state.nextId("segments") }
        rows().set(row.id, row)
        return toSegment(row)
      }),
    update: (id, fields) =>
      Effect.sync(() => {
        const existing = rows().get(id)
        if (existing === undefined) return Option.none()
        const row = { ...existing, ...fields }
        rows().set(id, row)
        return Option.some(toSegment(row))
      }),
    findById: (id) => find((row) => row.id === id),
    findByUuid: (uuid) => find((row) => row.uuid === uuid),
    delete: (id) => Effect.sync(() => rows().delete(id)),
    list: (emailListId, query) =>
      Effect.sync(() =>
        listPage([...rows().values()].filter((row) => row.emailListId === emailListId).map(toSegment), query, {
          id: (segment) => segment.id,
          sorts: { name: (segment) => segment.name, created_at: (segment) => segment.createdAt },
          filters: { search: (segment, value) => containsIgnoringCase(segment.name, value) }
        })
      )
  })
}
