import { Effect, Option } from "effect"
import { now } from "../../usecases/now.js"
import { EmailList } from "../../domain/EmailList.js"
import type { SubscriberId, TagId } from "../../domain/Ids.js"
import { matchesSegmentRule } from "../../domain/SegmentRule.js"
import { Subscriber } from "../../domain/Subscriber.js"
import type { SubscriberCriteria } from "../../domain/SubscriberCriteria.js"
import { subscriberStatus } from "../../domain/SubscriberStatus.js"
import { compareTagNames } from "../../domain/Tag.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { createdEvent, deletedEvent, statusEvents, tagEvents } from "../../events/subscriberEvents.js"
import { containsIgnoringCase, listPage } from "./listPage.js"
import { recordMemoryEvents } from "./memoryEvents.js"
import type { MemoryState } from "./MemoryState.js"

type Row = MemoryState["tables"]["subscribers"] extends Map<number, infer R> ? R : never

/** SubscriberRepository over the in-memory state; keeps the list's active count like the SQL stores. */
export const makeMemorySubscriberRepository = (state: MemoryState) => {
  const rows = () => state.tables.subscribers
  const tagIdsOf = (id: number): ReadonlySet<number> => state.tables.subscriberTags.get(id) ?? new Set()
  const toSubscriber = (row: Row) =>
    new Subscriber({
      ...row,
      id: row.id as SubscriberId,
      tags: [...tagIdsOf(row.id)].flatMap((id) => {
        const tag = state.tables.tags.get(id)
        return tag === undefined ? [] : [tag.name]
      }).sort(compareTagNames)
    })
  const adjustActive = (emailListId: number, delta: number) => {
    const list = state.tables.emailLists.get(emailListId)
    if (list !== undefined && delta !== 0) {
      state.tables.emailLists.set(emailListId, new EmailList({ ...list, activeSubscribersCount: list.activeSubscribersCount + delta }))
    }
  }
  const active = (row: Row) => (subscriberStatus(row) === "subscribed" ? 1 : 0)
  const find = (predicate: (row: Row) => boolean) =>
    Effect.sync(() => Option.map(Option.fromNullable([...rows().values()].find(predicate)), toSubscriber))
  const matches = (criteria: SubscriberCriteria) => (row: Row): boolean => {
    if (row.emailListId !== criteria.emailListId) return false
    if (criteria.email !== undefined && row.email !== criteria.email) return false
    const status = subscriberStatus(row)
    if (criteria.status !== undefined && status !== criteria.status) return false
    if (
      criteria.search !== undefined &&
      ![row.email, row.firstName, row.lastName].some((text) => containsIgnoringCase(text, criteria.search!))
    ) return false
    const tags = tagIdsOf(row.id)
    if (criteria.tags !== undefined) {
      const hits = criteria.tags.ids.filter((id) => tags.has(id)).length
      if (criteria.tags.all ? hits < criteria.tags.ids.length : hits === 0) return false
    }
    if (criteria.segment !== undefined && (status !== "subscribed" || !matchesSegmentRule(criteria.segment, tags))) {
      return false
    }
    return true
  }
  const setTags = (id: number, tags: ReadonlySet<number>) => state.tables.subscriberTags.set(id, tags)
  /** Records `tag.added` or `tag.removed` for the tags whose links actually changed. */
  const tagChanged = (type: "tag.added" | "tag.removed", id: number, tagIds: ReadonlyArray<number>, at: Date) => {
    const subscriber = rows().get(id)
    const changed = [...tagIds].sort((a, b) => a - b).flatMap((tagId) => {
      const tag = state.tables.tags.get(tagId)
      return tag === undefined ? [] : [{ id: tagId, name: tag.name }]
    })
    if (subscriber !== undefined && changed.length > 0) {
      recordMemoryEvents(state, tagEvents(type, subscriber, changed, at))
    }
  }

  const repository: SubscriberRepository["Type"] = SubscriberRepository.of({
    insert: (subscriber, tags = []) =>
      Effect.suspend(() => {
        const clash = [...rows().values()].some((row) =>
          row.emailListId === subscriber.emailListId && row.email === subscriber.email
        )
        if (clash) return Effect.succeed(Option.none())
        const row = { ...subscriber, id: state.nextId("subscribers") }
        rows().set(row.id, row)
        adjustActive(row.emailListId, active(row))
        recordMemoryEvents(state, [createdEvent(row, subscriberStatus(row), row.createdAt)])
        return tags.length === 0
          ? Effect.succeed(Option.some(toSubscriber(row)))
          : Effect.map(repository.addTags(row.id as SubscriberId, tags.map((tag) => tag.id)), () => Option.some(toSubscriber(row)))
      }),
    update: (previous, changes) =>
      Effect.sync(() => {
        const existing = rows().get(previous.id)
        if (existing === undefined || subscriberStatus(existing) !== subscriberStatus(previous)) return Option.none()
        const clash = [...rows().values()].some((row) =>
          row.id !== existing.id && row.emailListId === existing.emailListId && row.email === changes.email
        )
        if (clash) return Option.none()
        const row = { ...existing, ...changes }
        rows().set(row.id, row)
        adjustActive(row.emailListId, active(row) - active(existing))
        recordMemoryEvents(state, statusEvents(row, subscriberStatus(existing), subscriberStatus(row), changes.updatedAt))
        return Option.some(toSubscriber(row))
      }),
    findAllByEmail: (email) =>
      Effect.sync(() => [...rows().values()].filter((row) => row.email === email).sort((a, b) => a.id - b.id).map(toSubscriber)),
    findById: (id) => find((row) => row.id === id),
    findByUuid: (uuid) => find((row) => row.uuid === uuid),
    findByEmail: (emailListId, email) => find((row) => row.emailListId === emailListId && row.email === email),
    delete: (id) =>
      Effect.flatMap(now, (at) => Effect.sync(() => {
        const existing = rows().get(id)
        if (existing === undefined) return false
        rows().delete(id)
        recordMemoryEvents(state, [deletedEvent(existing, subscriberStatus(existing), at)])
        state.tables.subscriberTags.delete(id)
        adjustActive(existing.emailListId, -active(existing))
        // its mails go with it (a campaign's counters keep what they counted)
        const { campaignClicks, sends } = state.tables
        const gone = new Set([...sends.values()].filter((r) => r.send.subscriberId === id).map((r) => r.send.id as number))
        for (const sendId of gone) sends.delete(sendId)
        for (const [key, click] of campaignClicks) if (gone.has(click.sendId)) campaignClicks.delete(key)
        return true
      })),
    addTags: (id, tagIds) =>
      Effect.flatMap(now, (at) => Effect.sync(() => {
        const before = tagIdsOf(id)
        setTags(id, new Set([...before, ...tagIds]))
        tagChanged("tag.added", id, [...new Set(tagIds)].filter((tag) => !before.has(tag)), at)
      })),
    removeTags: (id, tagIds) =>
      Effect.flatMap(now, (at) => Effect.sync(() => {
        const before = tagIdsOf(id)
        setTags(id, new Set([...before].filter((tag) => !tagIds.includes(tag as TagId))))
        tagChanged("tag.removed", id, [...before].filter((tag) => tagIds.includes(tag as TagId)), at)
      })),
    changeTags: (id, { add, remove }) =>
      Effect.zipRight(repository.removeTags(id, remove.map((tag) => tag.id)), repository.addTags(id, add.map((tag) => tag.id))),
    tagIds: (id) => Effect.sync(() => [...tagIdsOf(id)] as Array<TagId>),
    page: (query) =>
      Effect.sync(() =>
        listPage([...rows().values()].filter(matches(query.criteria)), { ...query, filters: {}, includes: [] }, {
          id: (row) => row.id,
          sorts: {
            id: (row) => row.id,
            created_at: (row) => row.createdAt,
            updated_at: (row) => row.updatedAt,
            subscribed_at: (row) => row.subscribedAt,
            unsubscribed_at: (row) => row.unsubscribedAt,
            email: (row) => row.email,
            first_name: (row) => row.firstName,
            last_name: (row) => row.lastName
          },
          filters: {}
        })
      ).pipe(Effect.map((page) => ({ total: page.total, items: page.items.map(toSubscriber) }))),
    count: (criteria) => Effect.sync(() => [...rows().values()].filter(matches(criteria)).length)
  })
  return repository
}
