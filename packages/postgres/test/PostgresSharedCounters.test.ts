import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type EmailListId, EmailListRepository, SubscriberRepository, type TagId, TagRepository, Transactor } from "@mailroom/core"
import { aSubscriber, aTag, anEmailList } from "@mailroom/core/storage-suite"
import { PostgresIsolatedStorage } from "@mailroom/postgres"
import { foldCountChanges, foldDue, LIST_COUNTS, TAG_COUNTS } from "@mailroom/sql"
import { Deferred, Effect, Fiber, Option, Schedule } from "effect"

const url = process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

const subscribedCount = (id: EmailListId) =>
  Effect.flatMap(EmailListRepository, (lists) => lists.findById(id)).pipe(Effect.map((list) => Option.getOrThrow(list).activeSubscribersCount))
const taggedCount = (id: TagId) =>
  Effect.flatMap(TagRepository, (tags) => tags.findById(id)).pipe(Effect.map((tag) => Option.getOrThrow(tag).subscriberCount))

/** Subscribes `email` to the list with the tag, in a transaction of its own (`hold` keeps it open until it is done). */
const subscribeTagged = (listId: EmailListId, tagId: TagId, email: string, hold: Effect.Effect<void> = Effect.void) =>
  Effect.gen(function*() {
    const subscribers = yield* SubscriberRepository
    const { withTransaction } = yield* Transactor
    return yield* withTransaction(Effect.gen(function*() {
      const inserted = Option.getOrThrow(yield* subscribers.insert(aSubscriber(listId, { email })))
      yield* subscribers.addTags(inserted.id, [tagId])
      yield* hold
      return inserted
    }))
  })

/** The change rows not folded yet, in both tables. */
const unfolded = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ readonly n: number }>`SELECT (SELECT count(*) FROM email_list_count_changes) + (SELECT count(*) FROM tag_count_changes) AS n`)
  .pipe(Effect.map((rows) => Number(rows[0]!.n)), Effect.orDie)

describe("postgres shared counters", () => {
  it("a process folds each second for a few turns after its last change, and otherwise every 30 turns", () => {
    expect([0, 1, 2, 3].map((turns) => foldDue(turns, 1))).toEqual([true, true, true, true])
    expect([4, 10, Number.POSITIVE_INFINITY].map((turns) => foldDue(turns, 29))).toEqual([false, false, false])
    expect([4, Number.POSITIVE_INFINITY].map((turns) => foldDue(turns, 30))).toEqual([true, true])
  })

  it.live("the server folds the changes it records within seconds, and an idle one runs no fold each second", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const list = yield* Effect.flatMap(EmailListRepository, (lists) => lists.insert(anEmailList()))
      const { tag } = yield* Effect.flatMap(TagRepository, (tags) => tags.insertOrGet(aTag(list.id)))
      yield* subscribeTagged(list.id, tag.id, "folded@example.com")
      // folded by the process's own folder, with nobody calling a fold
      yield* unfolded.pipe(
        Effect.filterOrFail((n) => n === 0),
        Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.upTo("3 seconds")))
      )
      expect([yield* subscribedCount(list.id), yield* taggedCount(tag.id)]).toEqual([1, 1])
      // past its turns after the change the process is idle: a change another process records stays until a sweep
      yield* Effect.sleep("5 seconds")
      yield* sql`INSERT INTO email_list_count_changes (email_list_id, subscribed) VALUES (${list.id}, 1)`
      yield* Effect.sleep("2500 millis")
      expect(yield* unfolded).toBe(1)
      // and counts read meanwhile are exact
      expect(yield* subscribedCount(list.id)).toBe(2)
      // a sign-up without tags records its list's change in the insert itself, and the process folds again
      yield* Effect.flatMap(SubscriberRepository, (subscribers) => subscribers.insert(aSubscriber(list.id, { email: "untagged@example.com" })))
      yield* unfolded.pipe(
        Effect.filterOrFail((n) => n === 0),
        Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.upTo("3 seconds")))
      )
      expect(yield* subscribedCount(list.id)).toBe(3)
    }).pipe(Effect.provide(PostgresIsolatedStorage(url))), { timeout: 30_000 })

  it.live("a subscriber's write does not wait for another open transaction on the same list and tag", () =>
    Effect.gen(function*() {
      const list = yield* Effect.flatMap(EmailListRepository, (lists) => lists.insert(anEmailList()))
      const { tag } = yield* Effect.flatMap(TagRepository, (tags) => tags.insertOrGet(aTag(list.id)))
      const subscribed = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const open = yield* Effect.fork(
        subscribeTagged(list.id, tag.id, "first@example.com", Effect.zipRight(Deferred.succeed(subscribed, undefined), Deferred.await(release)))
      )
      yield* Deferred.await(subscribed)
      yield* subscribeTagged(list.id, tag.id, "second@example.com").pipe(
        Effect.timeoutFail({ duration: "5 seconds", onTimeout: () => "the second writer waited for the first" })
      )
      expect([yield* subscribedCount(list.id), yield* taggedCount(tag.id)]).toEqual([1, 1])
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(open)
      expect([yield* subscribedCount(list.id), yield* taggedCount(tag.id)]).toEqual([2, 2])
    }).pipe(Effect.provide(PostgresIsolatedStorage(url))), { timeout: 30_000 })

  it.live("counts stay exact while writers and folds run together, and a fold leaves them in the rows", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const lists = yield* EmailListRepository
      const subscribers = yield* SubscriberRepository
      const tags = yield* TagRepository
      const created = yield* Effect.forEach(["One", "Two", "Three", "Four"], (name) =>
        Effect.gen(function*() {
          const list = yield* lists.insert(anEmailList({ name }))
          return { list, tag: (yield* tags.insertOrGet(aTag(list.id))).tag }
        }))
      const writes = Array.from({ length: 80 }, (_, i) =>
        Effect.gen(function*() {
          const { list, tag } = created[i % created.length]!
          const inserted = yield* subscribeTagged(list.id, tag.id, `s${i}@example.com`)
          // every third unsubscribes, every fifth loses its tag, each in a transaction of its own
          if (i % 3 === 0) yield* subscribers.update(inserted, { ...inserted, unsubscribedAt: new Date(), updatedAt: new Date() })
          if (i % 5 === 0) yield* subscribers.removeTags(inserted.id, [tag.id])
        }))
      // folds of several processes at once (each fold takes every list's and tag's row it has changes for)
      const fold = Effect.all([foldCountChanges(sql, LIST_COUNTS), foldCountChanges(sql, TAG_COUNTS)]).pipe(Effect.orDie)
      yield* Effect.all([...writes, ...Array.from({ length: 30 }, () => fold)], { concurrency: 10 })
      const counted = (condition: string, id: number) =>
        Effect.map(sql<{ readonly n: number }>`SELECT CAST(count(*) AS INTEGER) AS n FROM ${sql.literal(condition)} ${id}`, (rows) => Number(rows[0]!.n))
      const expected = yield* Effect.forEach(created, ({ list, tag }) =>
        Effect.all([
          counted("subscribers WHERE status = 'subscribed' AND email_list_id =", list.id),
          counted("subscribers WHERE status = 'unsubscribed' AND email_list_id =", list.id),
          counted("subscriber_tags WHERE tag_id =", tag.id)
        ]))
      expect(expected.reduce((sum, [subscribed, unsubscribed, tagged]) => [sum[0]! + subscribed, sum[1]! + unsubscribed, sum[2]! + tagged], [0, 0, 0]))
        .toEqual([53, 27, 64])
      const read = Effect.forEach(created, ({ list, tag }) => Effect.all([subscribedCount(list.id), taggedCount(tag.id)]))
      expect(yield* read).toEqual(expected.map(([subscribed, , tagged]) => [subscribed, tagged]))
      yield* fold
      const left = yield* sql<{ readonly n: number }>`SELECT (SELECT count(*) FROM email_list_count_changes) + (SELECT count(*) FROM tag_count_changes) AS n`
      expect(Number(left[0]!.n)).toBe(0)
      const stored = yield* sql<{ readonly active: number; readonly unsubscribed: number }>`
        SELECT active_subscribers_count AS active, unsubscribed_count AS unsubscribed FROM email_lists ORDER BY id`
      expect(stored.map((row) => [Number(row.active), Number(row.unsubscribed)])).toEqual(expected.map(([subscribed, unsubscribed]) => [subscribed, unsubscribed]))
      const storedTags = yield* sql<{ readonly n: number }>`SELECT subscriber_count AS n FROM tags ORDER BY id`
      expect(storedTags.map((row) => Number(row.n))).toEqual(expected.map(([, , tagged]) => tagged))
      expect(yield* read).toEqual(expected.map(([subscribed, , tagged]) => [subscribed, tagged]))
    }).pipe(Effect.provide(PostgresIsolatedStorage(url))), { timeout: 30_000 })
})
