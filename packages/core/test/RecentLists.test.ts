/**
 * Sign-ups take their list from the lists found within the last LIST_RECHECK_MS: a list changed or deleted through
 * EmailLists applies to the next sign-up at once; one changed behind its back (by another process on the same
 * database) within LIST_RECHECK_MS, not later.
 */
import { describe, expect, it } from "@effect/vitest"
import { EmailListInput, EmailListRepository, EmailLists, LIST_RECHECK_MS, Mailroom, NotFound, SubscriberInput, Subscribers } from "@mailroom/core"
import { MemoryMailer, MemoryStorage } from "@mailroom/core/testing"
import { Effect, Layer, Schema, TestClock } from "effect"
import { noCsv } from "./noCsv.js"

const layer = Mailroom.pipe(Layer.provideMerge(MemoryMailer), Layer.provideMerge(MemoryStorage), Layer.provide(noCsv))

const listInput = (requiresConfirmation: boolean) =>
  Schema.decodeUnknown(EmailListInput)({ name: "News", default_from_email: "news@example.com", requires_confirmation: requiresConfirmation })

/** Signs an address up to the list; whether it is subscribed at once (else it waits for its confirmation). */
const signUp = (list: string, email: string) =>
  Effect.gen(function*() {
    const { subscriber } = yield* (yield* Subscribers).create(list, yield* Schema.decodeUnknown(SubscriberInput)({ email }))
    return subscriber.subscribedAt !== null
  })

describe("RecentLists", () => {
  it.effect("a list's confirmation setting changed here applies to the next sign-up at once", () =>
    Effect.gen(function*() {
      const lists = yield* EmailLists
      const list = yield* lists.create(yield* listInput(false))
      expect(yield* signUp(list.uuid, "a@example.com")).toBe(true)
      yield* lists.update(list.uuid, yield* listInput(true))
      expect(yield* signUp(list.uuid, "b@example.com")).toBe(false)
      yield* lists.update(String(list.id), yield* listInput(false))
      expect(yield* signUp(list.uuid, "c@example.com")).toBe(true)
    }).pipe(Effect.provide(layer)))

  it.effect("a list deleted here refuses the next sign-up at once", () =>
    Effect.gen(function*() {
      const lists = yield* EmailLists
      const list = yield* lists.create(yield* listInput(false))
      expect(yield* signUp(list.uuid, "a@example.com")).toBe(true)
      yield* lists.remove(list.uuid)
      expect(yield* Effect.flip(signUp(list.uuid, "b@example.com"))).toBeInstanceOf(NotFound)
    }).pipe(Effect.provide(layer)))

  it.effect("a list changed by another process applies to sign-ups within LIST_RECHECK_MS", () =>
    Effect.gen(function*() {
      const lists = yield* EmailLists
      const repo = yield* EmailListRepository
      const list = yield* lists.create(yield* listInput(false))
      expect(yield* signUp(list.uuid, "a@example.com")).toBe(true)
      yield* repo.update(list.id, { ...list, requiresConfirmation: true, updatedAt: new Date() })
      yield* TestClock.adjust(LIST_RECHECK_MS - 1)
      expect(yield* signUp(list.uuid, "b@example.com")).toBe(true)
      yield* TestClock.adjust(1)
      expect(yield* signUp(list.uuid, "c@example.com")).toBe(false)
    }).pipe(Effect.provide(layer)))
})
