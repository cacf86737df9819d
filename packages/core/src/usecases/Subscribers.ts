import { Effect, Option } from "effect"
import type { SubscriberQuery } from "../domain/Collections.js"
import { normalizeEmail } from "../domain/Email.js"
import type { EmailList } from "../domain/EmailList.js"
import { newUuid, type SubscriberUuid } from "../domain/Ids.js"
import { Subscriber } from "../domain/Subscriber.js"
import type { SubscriberChanges } from "../ports/SubscriberRepository.js"
import type { SubscriberInput, SubscriberUpdateInput } from "../domain/SubscriberInput.js"
import { subscriberStatus } from "../domain/SubscriberStatus.js"
import { compareTagNames, type TagRef } from "../domain/Tag.js"
import { ValidationError } from "../errors/ValidationError.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { SubscriberRepository } from "../ports/SubscriberRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { ConfirmationMails } from "./ConfirmationMails.js"
import { findByRef, orNotFound } from "./lookup.js"
import { now } from "./now.js"
import { RecentLists } from "./RecentLists.js"
import { retryOnConflict, StoreConflict } from "./StoreConflict.js"
import { SubscriberCriteriaResolver } from "./SubscriberCriteriaResolver.js"
import { SubscriberTags, type TagSync } from "./SubscriberTags.js"

/** A subscriber with the list it belongs to. */
export interface ListedSubscriber {
  readonly list: EmailList
  readonly subscriber: Subscriber
}

/** Subscribers of lists: subscribe (with double opt-in), update, tag, list and delete. */
export class Subscribers extends Effect.Service<Subscribers>()("@mailroom/Subscribers", {
  effect: Effect.gen(function*() {
    const repo = yield* SubscriberRepository
    const lists = yield* EmailListRepository
    const { withAtomicWrite, withTransaction } = yield* Transactor
    const confirmations = yield* ConfirmationMails
    const tagging = yield* SubscriberTags
    const resolver = yield* SubscriberCriteriaResolver
    const recentLists = yield* RecentLists

    // sign-ups and pages of subscribers use only the list's id, uuid and confirmation setting
    const findList = recentLists.find
    const reload = (subscriber: Subscriber) => repo.findById(subscriber.id).pipe(orNotFound("Subscriber"))
    const save = (previous: Subscriber, changes: SubscriberChanges) =>
      Effect.flatMap(repo.update(previous, changes), Option.match({
        onNone: () => Effect.fail(new StoreConflict()),
        onSome: Effect.succeed
      }))

    /** Finds a subscriber by uuid (or integer id) with its list. */
    const find = (ref: string) =>
      Effect.gen(function*() {
        const subscriber = yield* findByRef("Subscriber", ref, repo.findByUuid, repo.findById)
        const list = yield* lists.findById(subscriber.emailListId).pipe(orNotFound("Subscriber"))
        return { list, subscriber }
      })

    const list = Effect.fn("Subscribers.list")(function*(listRef: string, query: SubscriberQuery) {
      const list = yield* findList(listRef)
      const criteria = yield* resolver.resolve(list, query.filters)
      const page = Option.isNone(criteria)
        ? { items: [], total: 0 }
        : yield* repo.page({ criteria: criteria.value, page: query.page, perPage: query.perPage, sort: query.sort })
      return { list, page }
    })

    const get = Effect.fn("Subscribers.get")(function*(ref: string) {
      return yield* find(ref)
    })

    /** A subscriber just created with these tags, carrying their names. */
    const withTagNames = (subscriber: Subscriber, tags: ReadonlyArray<TagRef>) =>
      tags.length === 0 ? subscriber : new Subscriber({ ...subscriber, tags: tags.map((tag) => tag.name).sort(compareTagNames) }, true)

    const stamps = (subscriber: Subscriber) => ({ subscribedAt: subscriber.subscribedAt, unsubscribedAt: subscriber.unsubscribedAt })

    /**
     * Subscribes an address. New: unconfirmed with a confirmation mail when the list requires confirmation (unless
     * `skip_confirmation`), else subscribed. Existing: updated (opted back in, or unconfirmed with a new mail when
     * confirmation applies); with `strict` an already subscribed address is a 422.
     */
    const create = Effect.fn("Subscribers.create")(function*(listRef: string, input: SubscriberInput, strictQuery = false) {
      const list = yield* findList(listRef)
      const email = normalizeEmail(input.email)
      const confirm = list.requiresConfirmation && !(input.skipConfirmation ?? false)
      const strict = strictQuery || (input.strict ?? false)
      const fresh = (at: Date) => ({
        uuid: newUuid() as SubscriberUuid,
        emailListId: list.id,
        email,
        firstName: input.firstName ?? null,
        lastName: input.lastName ?? null,
        extraAttributes: input.extraAttributes ?? {},
        subscribedAt: confirm ? null : at,
        unsubscribedAt: null,
        createdAt: at,
        updatedAt: at
      })
      // a new address without a confirmation mail, whose tags (if any) all exist already, is only the insert, which
      // attaches them and is atomic on its own: no transaction to open and commit (on Postgres one round trip, two with
      // tags, instead of three to five)
      let triedAlone = false
      if (!confirm) {
        const known = input.tags === undefined || input.tags.length === 0 ? Option.some([]) : yield* tagging.existing(list, input.tags)
        if (Option.isSome(known)) {
          const inserted = yield* withAtomicWrite(repo.insert(fresh(yield* now), known.value))
          if (Option.isSome(inserted)) return { list, subscriber: withTagNames(inserted.value, known.value), created: true }
          triedAlone = true
        }
      }
      return yield* retryOnConflict(withTransaction(Effect.gen(function*() {
        const at = yield* now
        // a new address is inserted at once (one statement fewer than looking first); an existing one is left as it
        // is. Just found to exist, it is not tried again; after a conflict (deleted since) it is.
        const inserted = triedAlone ? Option.none() : yield* repo.insert(fresh(at))
        triedAlone = false
        if (Option.isSome(inserted)) {
          // a subscriber this transaction created has exactly the tags it gave: no need to read them back
          const added = input.tags === undefined || input.tags.length === 0
            ? []
            : yield* tagging.sync(list, inserted.value, input.tags, "add")
          const subscriber = withTagNames(inserted.value, added)
          if (confirm) yield* confirmations.request(subscriber)
          return { list, subscriber, created: true }
        }
        const existing = yield* repo.findByEmail(list.id, email)
        // deleted since the insert found it: try again
        if (Option.isNone(existing)) return yield* new StoreConflict()
        const previous = existing.value
        const status = subscriberStatus(previous)
        if (strict && status === "subscribed") {
          return yield* ValidationError.field("email", "This email address is already subscribed.")
        }
        const unconfirmed = confirm && status !== "subscribed"
        const updated = yield* save(previous, {
          email,
          firstName: input.firstName === undefined ? previous.firstName : input.firstName,
          lastName: input.lastName === undefined ? previous.lastName : input.lastName,
          extraAttributes: input.extraAttributes === undefined ? previous.extraAttributes : input.extraAttributes ?? {},
          ...(unconfirmed
            ? { subscribedAt: null, unsubscribedAt: null }
            : { subscribedAt: previous.subscribedAt ?? at, unsubscribedAt: null }),
          updatedAt: at
        })
        if (input.tags !== undefined) yield* tagging.sync(list, updated, input.tags, "replace")
        if (unconfirmed) yield* confirmations.request(updated)
        return { list, subscriber: yield* reload(updated), created: false }
      })))
    })

    /** Changes the fields present in the body; `tags` replace the user tags, or are added with `append_tags`. */
    const update = Effect.fn("Subscribers.update")(function*(ref: string, input: SubscriberUpdateInput) {
      const { list, subscriber } = yield* find(ref)
      const email = normalizeEmail(input.email)
      return yield* retryOnConflict(withTransaction(Effect.gen(function*() {
        const previous = yield* reload(subscriber)
        if (email !== previous.email && Option.isSome(yield* repo.findByEmail(list.id, email))) {
          return yield* ValidationError.field("email", "There already is a subscriber on this list with this email.")
        }
        const updated = yield* save(previous, {
          ...stamps(previous),
          email,
          firstName: input.firstName === undefined ? previous.firstName : input.firstName,
          lastName: input.lastName === undefined ? previous.lastName : input.lastName,
          extraAttributes: input.extraAttributes === undefined ? previous.extraAttributes : input.extraAttributes ?? {},
          updatedAt: yield* now
        })
        if (input.tags !== undefined) yield* tagging.sync(list, updated, input.tags, input.appendTags ? "add" : "replace")
        return { list, subscriber: yield* reload(updated) }
      })))
    })

    /** Adds (`add`) or removes (`remove`) tags by name. */
    const changeTags = Effect.fn("Subscribers.changeTags")(function*(
      ref: string,
      names: ReadonlyArray<string>,
      mode: Exclude<TagSync, "replace">
    ) {
      const { list, subscriber } = yield* find(ref)
      return yield* withTransaction(Effect.gen(function*() {
        yield* tagging.sync(list, subscriber, names, mode)
        return { list, subscriber: yield* reload(subscriber) }
      }))
    })

    /** Deletes the subscriber entirely: the address can subscribe again. */
    const remove = Effect.fn("Subscribers.remove")(function*(ref: string) {
      const { subscriber } = yield* find(ref)
      yield* withTransaction(repo.delete(subscriber.id))
    })

    return { list, get, create, update, changeTags, remove, find } as const
  })
}) {}
