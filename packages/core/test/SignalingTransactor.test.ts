/**
 * The commit signal idle workers wait on: it is given when an outermost transaction commits, not when a nested one
 * (which only joins it) ends, and not when a transaction fails.
 */
import { describe, expect, it } from "@effect/vitest"
import { Transactor, WorkSignal } from "@mailroom/core"
import { Deferred, Effect, Layer } from "effect"
import { SignalingTransactor } from "../src/usecases/SignalingTransactor.js"

/** A store whose transactions run their effect as it is (nesting is the signaling layer's concern here). */
const PlainTransactor = Layer.succeed(Transactor, Transactor.of({ withTransaction: (self) => self, withAtomicWrite: (self) => self }))

const TestLayer = SignalingTransactor.pipe(Layer.provideMerge(WorkSignal.Default), Layer.provide(PlainTransactor))

describe("SignalingTransactor", () => {
  it.effect("signals once the outermost transaction commits, not when a nested one ends", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactor
      const signal = yield* WorkSignal
      const before = yield* signal.current
      const afterNested = yield* withTransaction(Effect.gen(function*() {
        yield* withTransaction(Effect.void)
        return yield* Deferred.isDone(before)
      }))
      expect(afterNested).toBe(false)
      expect(yield* Deferred.isDone(before)).toBe(true)
      const next = yield* signal.current
      expect(yield* Deferred.isDone(next)).toBe(false)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("signals an atomic write outside a transaction; inside one, only the outer commit signals", () =>
    Effect.gen(function*() {
      const { withAtomicWrite, withTransaction } = yield* Transactor
      const signal = yield* WorkSignal
      const before = yield* signal.current
      yield* withAtomicWrite(Effect.void)
      expect(yield* Deferred.isDone(before)).toBe(true)
      const next = yield* signal.current
      const afterJoined = yield* withTransaction(Effect.zipRight(withAtomicWrite(Effect.void), Deferred.isDone(next)))
      expect(afterJoined).toBe(false)
      expect(yield* Deferred.isDone(next)).toBe(true)
      const last = yield* signal.current
      yield* Effect.flip(withAtomicWrite(Effect.fail("refused")))
      expect(yield* Deferred.isDone(last)).toBe(false)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("says nothing for a transaction that fails", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactor
      const signal = yield* WorkSignal
      const before = yield* signal.current
      yield* Effect.flip(withTransaction(Effect.fail("rolled back")))
      expect(yield* Deferred.isDone(before)).toBe(false)
    }).pipe(Effect.provide(TestLayer)))
})
