import { Effect, Option } from "effect"
import type { EmailList } from "../domain/EmailList.js"
import type { Subscriber } from "../domain/Subscriber.js"
import { tagKey, type TagRef } from "../domain/Tag.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { TagRepository } from "../ports/TagRepository.js"
import { now } from "./now.js"

/** How given tag names combine with a subscriber's current tags. */
export type TagSync = "replace" | "add" | "remove"

/** Trimmed, non-empty names, each once (compared case-insensitively). */
export const cleanTagNames = (names: ReadonlyArray<string>): Array<string> => {
  const seen = new Map<string, string>()
  for (const name of names.map((n) => n.trim()).filter((n) => n.length > 0)) {
    if (!seen.has(tagKey(name))) seen.set(tagKey(name), name)
  }
  return [...seen.values()]
}

/** Attaching, detaching and replacing a subscriber's tags by name; missing user tags are created on the list. */
export class SubscriberTags extends Effect.Service<SubscriberTags>()("@mailroom/SubscriberTags", {
  effect: Effect.gen(function*() {
    const subscribers = yield* SubscriberRepository
    const tags = yield* TagRepository

    /**
     * `add` attaches the named tags (creating them), `remove` detaches matching ones (unknown names ignored),
     * `replace` makes the given names the subscriber's user tags (system tags stay). Returns the named tags, now all
     * attached (none for `remove`).
     */
    const sync = Effect.fn("SubscriberTags.sync")(function*(
      list: EmailList,
      subscriber: Subscriber,
      given: ReadonlyArray<string>,
      mode: TagSync
    ) {
      const names = cleanTagNames(given)
      if (mode === "remove") {
        const found = yield* tags.findByRefs(list.id, names)
        const keys = new Set(names.map(tagKey))
        const ids = found.filter((tag) => keys.has(tagKey(tag.name))).map((tag) => tag.id)
        if (ids.length > 0) yield* subscribers.removeTags(subscriber.id, ids)
        return []
      }
      const wanted = names.length === 0 ? [] : yield* tags.ensure(list.id, names, "default", yield* now)
      const keep = new Set(wanted.map((tag) => tag.id))
      const current = mode === "replace" && subscriber.tags.length > 0 ? yield* tags.findByRefs(list.id, subscriber.tags) : []
      const drop = current.filter((tag) => tag.type === "default" && !keep.has(tag.id))
      // one step, so that the tags' counts move in one order whatever is dropped and added
      if (drop.length > 0 || wanted.length > 0) yield* subscribers.changeTags(subscriber.id, { add: wanted, remove: drop })
      return wanted
    })

    /**
     * The named tags as references when every one exists on the list already (a sign-up then attaches them in its own
     * insert); none when one is missing (it would have to be created, in the sign-up's transaction).
     */
    const existing = Effect.fn("SubscriberTags.existing")(function*(list: EmailList, given: ReadonlyArray<string>) {
      const names = cleanTagNames(given)
      if (names.length === 0) return Option.some<ReadonlyArray<TagRef>>([])
      const found = yield* tags.refsByName(list.id, names)
      return found.length === names.length ? Option.some(found) : Option.none()
    })

    return { sync, existing } as const
  })
}) {}
