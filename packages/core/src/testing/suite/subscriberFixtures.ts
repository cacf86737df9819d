import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SubscriberCollection } from "../../domain/Collections.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import type { EmailListId, TagId } from "../../domain/Ids.js"
import type { Subscriber } from "../../domain/Subscriber.js"
import type { SubscriberCriteria } from "../../domain/SubscriberCriteria.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { SubscriberRepository, type SubscriberChanges } from "../../ports/SubscriberRepository.js"
import { TagRepository } from "../../ports/TagRepository.js"
import { Transactor } from "../../ports/Transactor.js"
import { aSubscriber, aTag, anEmailList, type MakeStorage } from "./fixtures.js"

export const emails = (page: { readonly items: ReadonlyArray<{ readonly email: string }> }) => page.items.map((s) => s.email)

/** The writable fields of a subscriber as they are, to change a few. */
export const changesOf = (s: Subscriber): SubscriberChanges => ({
  email: s.email,
  firstName: s.firstName,
  lastName: s.lastName,
  extraAttributes: s.extraAttributes,
  subscribedAt: s.subscribedAt,
  unsubscribedAt: s.unsubscribedAt,
  updatedAt: s.updatedAt
})

/** Shared fixtures of the subscriber contracts: a fresh store per test, lists, subscribers, tags and queries. */
export const subscriberFixtures = (makeStorage: MakeStorage) => {
  const run = <A, E>(
    effect: Effect.Effect<A, E, SubscriberRepository | TagRepository | EmailListRepository | Transactor>
  ) => Effect.provide(effect, makeStorage())
  const aList = Effect.flatMap(EmailListRepository, (r) => Effect.map(r.insert(anEmailList()), (l) => l.id))
  const activeCount = (id: EmailListId) =>
    Effect.flatMap(EmailListRepository, (r) => Effect.map(r.findById(id), (l) => Option.getOrThrow(l).activeSubscribersCount))
  const subscribe = (emailListId: EmailListId, overrides: Parameters<typeof aSubscriber>[1] = {}) =>
    Effect.flatMap(SubscriberRepository, (r) => Effect.map(r.insert(aSubscriber(emailListId, overrides)), Option.getOrThrow))
  const tagged = (subscriber: Subscriber, tagIds: ReadonlyArray<TagId>) =>
    Effect.flatMap(SubscriberRepository, (r) => r.addTags(subscriber.id, tagIds))
  const tagsOf = (emailListId: EmailListId, ...names: ReadonlyArray<string>) =>
    Effect.flatMap(TagRepository, (r) =>
      Effect.forEach(names, (name) => Effect.map(r.insertOrGet(aTag(emailListId, { name })), ({ tag }) => tag.id)))
  const page = (
    criteria: SubscriberCriteria,
    options: { readonly sort?: string; readonly page?: number; readonly perPage?: number } = {}
  ) =>
    Effect.gen(function*() {
      const query = yield* makeCollectionQuery(SubscriberCollection, options)
      const repo = yield* SubscriberRepository
      return yield* repo.page({ criteria, page: query.page, perPage: query.perPage, sort: query.sort })
    })
  /** The matching emails in email order, checked against `count`. */
  const matching = (criteria: SubscriberCriteria) =>
    Effect.gen(function*() {
      const found = yield* page(criteria, { sort: "email", perPage: 100 })
      expect(yield* Effect.flatMap(SubscriberRepository, (r) => r.count(criteria))).toBe(found.total)
      expect(found.items).toHaveLength(found.total)
      return emails(found)
    })
  return { run, aList, activeCount, subscribe, tagged, tagsOf, page, matching }
}
