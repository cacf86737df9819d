import { Effect } from "effect"
import type { TagQuery } from "../domain/Collections.js"
import { newUuid, type TagUuid } from "../domain/Ids.js"
import { tagKey } from "../domain/Tag.js"
import type { TagInput } from "../domain/TagInput.js"
import { ValidationError } from "../errors/ValidationError.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { TagRepository } from "../ports/TagRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { findByRef, findInList, orNotFound } from "./lookup.js"
import { now } from "./now.js"

/** Tags of a list. A tag is addressed through its list; a tag of another list is not found. */
export class Tags extends Effect.Service<Tags>()("@mailroom/Tags", {
  effect: Effect.gen(function*() {
    const repo = yield* TagRepository
    const lists = yield* EmailListRepository
    const { withTransaction } = yield* Transactor

    const findList = (ref: string) => findByRef("Email list", ref, lists.findByUuid, lists.findById)
    const find = (listRef: string, tagRef: string) =>
      Effect.flatMap(findList(listRef), (list) =>
        Effect.map(findInList("Tag", tagRef, list.id, repo.findByUuid, repo.findById), (tag) => ({ list, tag })))

    const list = Effect.fn("Tags.list")(function*(listRef: string, query: TagQuery) {
      const list = yield* findList(listRef)
      return { list, page: yield* repo.list(list.id, query) }
    })

    const get = Effect.fn("Tags.get")(function*(listRef: string, tagRef: string) {
      return yield* find(listRef, tagRef)
    })

    /** Creates a user tag; when the list has a tag of that name, returns it unchanged with `created: false`. */
    const create = Effect.fn("Tags.create")(function*(listRef: string, input: TagInput) {
      const list = yield* findList(listRef)
      const at = yield* now
      const { created, tag } = yield* repo.insertOrGet({
        uuid: newUuid() as TagUuid,
        emailListId: list.id,
        name: input.name.trim(),
        type: "default",
        visibleInPreferences: input.visibleInPreferences ?? false,
        createdAt: at,
        updatedAt: at
      })
      return { list, tag, created }
    })

    /** Renames a tag and sets its preference visibility (absent means false); a name taken by another tag is a 422. */
    const update = Effect.fn("Tags.update")(function*(listRef: string, tagRef: string, input: TagInput) {
      const { list, tag } = yield* find(listRef, tagRef)
      const name = input.name.trim()
      const updated = yield* withTransaction(Effect.gen(function*() {
        const clash = (yield* repo.findByRefs(list.id, [name])).find((other) =>
          other.id !== tag.id && tagKey(other.name) === tagKey(name)
        )
        if (clash !== undefined) return yield* ValidationError.field("name", "The name has already been taken.")
        const at = yield* now
        return yield* repo.update(tag.id, { name, visibleInPreferences: input.visibleInPreferences ?? false, updatedAt: at })
          .pipe(orNotFound("Tag"))
      }))
      return { list, tag: updated }
    })

    /** Deletes a tag, detaching it from every subscriber and segment. */
    const remove = Effect.fn("Tags.remove")(function*(listRef: string, tagRef: string) {
      const { tag } = yield* find(listRef, tagRef)
      yield* withTransaction(repo.delete(tag.id))
    })

    return { list, get, create, update, remove } as const
  })
}) {}
