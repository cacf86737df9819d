import { Effect } from "effect"
import type { SegmentQuery } from "../domain/Collections.js"
import type { EmailList } from "../domain/EmailList.js"
import { newUuid, type SegmentUuid, type TagId } from "../domain/Ids.js"
import type { SegmentInput } from "../domain/SegmentInput.js"
import { tagKey } from "../domain/Tag.js"
import { ValidationError } from "../errors/ValidationError.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { SegmentRepository } from "../ports/SegmentRepository.js"
import { TagRepository } from "../ports/TagRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { findByRef, findInList, orNotFound } from "./lookup.js"
import { now } from "./now.js"

/** Segments of a list: subscribed members selected by positive and negative tags. */
export class Segments extends Effect.Service<Segments>()("@mailroom/Segments", {
  effect: Effect.gen(function*() {
    const repo = yield* SegmentRepository
    const tags = yield* TagRepository
    const lists = yield* EmailListRepository
    const { withTransaction } = yield* Transactor

    const findList = (ref: string) => findByRef("Email list", ref, lists.findByUuid, lists.findById)
    const find = (listRef: string, segmentRef: string) =>
      Effect.flatMap(findList(listRef), (list) =>
        Effect.map(
          findInList("Segment", segmentRef, list.id, repo.findByUuid, repo.findById),
          (segment) => ({ list, segment })
        ))

    /** Resolves the body's tag names to the list's tags; unknown names are 422s on `positive_tags.N`/`negative_tags.N`. */
    const fieldsOf = (list: EmailList, input: SegmentInput) =>
      Effect.gen(function*() {
        const positive = input.positiveTags ?? []
        const negative = input.negativeTags ?? []
        const known = yield* tags.findByRefs(list.id, [...positive, ...negative].map((name) => name.trim()))
        const byKey = new Map(known.map((tag) => [tagKey(tag.name), tag.id]))
        const errors: Record<string, Array<string>> = {}
        const resolve = (field: string, names: ReadonlyArray<string>) =>
          names.flatMap((name, index): Array<TagId> => {
            const id = byKey.get(tagKey(name))
            if (id !== undefined) return [id]
            errors[`${field}.${index}`] = [`The selected ${field}.${index} is invalid.`]
            return []
          })
        const positiveTagIds = [...new Set(resolve("positive_tags", positive))]
        const negativeTagIds = [...new Set(resolve("negative_tags", negative))]
        if (Object.keys(errors).length > 0) return yield* ValidationError.fromErrors(errors)
        return {
          name: input.name.trim(),
          positiveTagIds,
          negativeTagIds,
          allPositiveTagsRequired: input.allPositiveTagsRequired ?? false,
          allNegativeTagsRequired: input.allNegativeTagsRequired ?? false,
          updatedAt: yield* now
        }
      })

    const list = Effect.fn("Segments.list")(function*(listRef: string, query: SegmentQuery) {
      const list = yield* findList(listRef)
      return { list, page: yield* repo.list(list.id, query) }
    })

    const get = Effect.fn("Segments.get")(function*(listRef: string, segmentRef: string) {
      return yield* find(listRef, segmentRef)
    })

    const create = Effect.fn("Segments.create")(function*(listRef: string, input: SegmentInput) {
      const list = yield* findList(listRef)
      const segment = yield* withTransaction(Effect.gen(function*() {
        const fields = yield* fieldsOf(list, input)
        return yield* repo.insert({ ...fields, uuid: newUuid() as SegmentUuid, emailListId: list.id, createdAt: fields.updatedAt })
      }))
      return { list, segment }
    })

    /** Replaces the segment's name and every condition. */
    const update = Effect.fn("Segments.update")(function*(listRef: string, segmentRef: string, input: SegmentInput) {
      const { list, segment } = yield* find(listRef, segmentRef)
      const updated = yield* withTransaction(
        Effect.flatMap(fieldsOf(list, input), (fields) => repo.update(segment.id, fields).pipe(orNotFound("Segment")))
      )
      return { list, segment: updated }
    })

    const remove = Effect.fn("Segments.remove")(function*(listRef: string, segmentRef: string) {
      const { segment } = yield* find(listRef, segmentRef)
      yield* withTransaction(repo.delete(segment.id))
    })

    return { list, get, create, update, remove } as const
  })
}) {}
