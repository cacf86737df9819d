import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { EmailListRepository, SubscriberRepository, Transactor } from "@mailroom/core"
import { aSubscriber, anEmailList } from "@mailroom/core/storage-suite"
import { PostgresIsolatedStorage } from "@mailroom/postgres"
import { foldListCounts } from "@mailroom/sql"
import { Deferred, Effect, Fiber, Option } from "effect"

const url = process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

const subscribedCount = (id: Parameters<EmailListRepository["Type"]["findById"]>[0]) =>
  Effect.flatMap(EmailListRepository, (lists) => lists.findById(id)).pipe(Effect.map((list) => Option.getOrThrow(list).activeSubscribersCount))

describe("postgres list counts", () => {
  it.live("a subscriber's write does not wait for another open transaction on the same list", () =>
    Effect.gen(function*() {
      const lists = yield* EmailListRepository
      const subscribers = yield* SubscriberRepository
      const { withTransaction } = yield* Transactor
      const list = yield* lists.insert(anEmailList())
      const subscribed = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const open = yield* Effect.fork(withTransaction(Effect.gen(function*() {
        yield* subscribers.insert(aSubscriber(list.id, { email: "first@example.com" }))
        yield* Deferred.succeed(subscribed, undefined)
        yield* Deferred.await(release)
      })))
      yield* Deferred.await(subscribed)
      const second = yield* withTransaction(subscribers.insert(aSubscriber(list.id, { email: "second@example.com" }))).pipe(
        Effect.timeoutFail({ duration: "5 seconds", onTimeout: () => "the second writer waited for the first" })
      )
      expect(Option.isSome(second)).toBe(true)
      expect(yield* subscribedCount(list.id)).toBe(1)
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(open)
      expect(yield* subscribedCount(list.id)).toBe(2)
    }).pipe(Effect.provide(PostgresIsolatedStorage(url))), { timeout: 30_000 })

  it.live("counts stay exact while writers and folds run together, and a fold leaves them in the lists' rows", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const lists = yield* EmailListRepository
      const subscribers = yield* SubscriberRepository
      const { withTransaction } = yield* Transactor
      const [one, two] = [yield* lists.insert(anEmailList({ name: "One" })), yield* lists.insert(anEmailList({ name: "Two" }))]
      const writes = Array.from({ length: 60 }, (_, i) =>
        withTransaction(Effect.gen(function*() {
          const inserted = yield* subscribers.insert(aSubscriber(i % 3 === 0 ? two.id : one.id, { email: `s${i}@example.com` }))
          // every fourth unsubscribes again in the same transaction
          if (i % 4 === 0) {
            yield* subscribers.update(Option.getOrThrow(inserted), { ...Option.getOrThrow(inserted), unsubscribedAt: new Date(), updatedAt: new Date() })
          }
        })))
      const folds = Array.from({ length: 10 }, () => foldListCounts(sql).pipe(Effect.orDie))
      yield* Effect.all([...writes, ...folds], { concurrency: 8 })
      const expected = (listId: number) =>
        Effect.map(
          sql<{ readonly n: number }>`SELECT CAST(count(*) AS INTEGER) AS n FROM subscribers WHERE email_list_id = ${listId} AND status = 'subscribed'`,
          (rows) => Number(rows[0]!.n)
        )
      const [oneSubscribed, twoSubscribed] = [yield* expected(one.id), yield* expected(two.id)]
      expect(oneSubscribed + twoSubscribed).toBe(45)
      expect(yield* subscribedCount(one.id)).toBe(oneSubscribed)
      expect(yield* subscribedCount(two.id)).toBe(twoSubscribed)
      yield* foldListCounts(sql)
      const left = yield* sql<{ readonly n: number }>`SELECT CAST(count(*) AS INTEGER) AS n FROM email_list_count_changes`
      expect(Number(left[0]!.n)).toBe(0)
      const stored = yield* sql<{ readonly id: number; readonly active: number; readonly unsubscribed: number }>`
        SELECT id, active_subscribers_count AS active, unsubscribed_count AS unsubscribed FROM email_lists ORDER BY id`
      expect(stored.map((row) => [Number(row.active), Number(row.unsubscribed)])).toEqual([[oneSubscribed, 40 - oneSubscribed], [twoSubscribed, 20 - twoSubscribed]])
    }).pipe(Effect.provide(PostgresIsolatedStorage(url))), { timeout: 30_000 })
})
