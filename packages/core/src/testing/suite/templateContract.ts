import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TemplateCollection } from "../../domain/Collections.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import type { TemplateId, TemplateUuid } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import { TemplateRepository } from "../../ports/TemplateRepository.js"
import { aTemplate, at, type MakeStorage } from "./fixtures.js"

const names = (page: { readonly items: ReadonlyArray<{ readonly name: string }> }) => page.items.map((t) => t.name)
const query = (options: Parameters<typeof makeCollectionQuery<"name" | "updated_at", "search", never>>[1]) =>
  makeCollectionQuery(TemplateCollection, options)

/** TemplateRepository conformance. */
export const templateContract = (makeStorage: MakeStorage) =>
  describe("TemplateRepository", () => {
    const run = <A, E>(effect: Effect.Effect<A, E, TemplateRepository>) =>
      Effect.provide(effect, makeStorage()) as Effect.Effect<A, E | unknown>

    it.effect("inserts and finds by id and uuid, keeping every field", () =>
      run(Effect.gen(function*() {
        const repo = yield* TemplateRepository
        const html = "<p>Grüße 👋 [[[content]]]</p>\n".repeat(2000)
        const saved = yield* repo.insert(aTemplate({ name: "Welcome", html, structuredHtml: "{\"blocks\":[]}" }))
        expect(saved.id).toBeGreaterThan(0)
        expect(saved.html).toBe(html)
        const byId = yield* repo.findById(saved.id)
        const byUuid = yield* repo.findByUuid(saved.uuid)
        expect(Option.getOrThrow(byId)).toEqual(saved)
        expect(Option.getOrThrow(byUuid)).toEqual(saved)
        expect(saved.createdAt).toEqual(at(0))
        expect(saved.structuredHtml).toBe("{\"blocks\":[]}")
      })))

    it.effect("finds nothing for unknown ids", () =>
      run(Effect.gen(function*() {
        const repo = yield* TemplateRepository
        expect(Option.isNone(yield* repo.findById(999 as TemplateId))).toBe(true)
        expect(Option.isNone(yield* repo.findByUuid(newUuid() as TemplateUuid))).toBe(true)
        expect(Option.isNone(yield* repo.update(999 as TemplateId, { name: "x", html: "", structuredHtml: null, updatedAt: at(1) }))).toBe(true)
        expect(yield* repo.delete(999 as TemplateId)).toBe(false)
      })))

    it.effect("updates the writable fields and keeps the rest", () =>
      run(Effect.gen(function*() {
        const repo = yield* TemplateRepository
        const saved = yield* repo.insert(aTemplate({ structuredHtml: "x" }))
        const updated = Option.getOrThrow(
          yield* repo.update(saved.id, { name: "Renamed", html: "", structuredHtml: null, updatedAt: at(60) })
        )
        expect(updated).toMatchObject({ id: saved.id, uuid: saved.uuid, name: "Renamed", html: "", structuredHtml: null })
        expect(updated.createdAt).toEqual(at(0))
        expect(updated.updatedAt).toEqual(at(60))
        expect(Option.getOrThrow(yield* repo.findById(saved.id))).toEqual(updated)
      })))

    it.effect("deletes once, and never reuses an id", () =>
      run(Effect.gen(function*() {
        const repo = yield* TemplateRepository
        const first = yield* repo.insert(aTemplate())
        const second = yield* repo.insert(aTemplate())
        expect(yield* repo.delete(second.id)).toBe(true)
        expect(yield* repo.delete(second.id)).toBe(false)
        expect(Option.isNone(yield* repo.findByUuid(second.uuid))).toBe(true)
        const third = yield* repo.insert(aTemplate())
        expect(third.id).toBeGreaterThan(second.id)
        expect(Option.isSome(yield* repo.findById(first.id))).toBe(true)
      })))

    it.effect("sorts by name case-insensitively, either way, ties by id", () =>
      run(Effect.gen(function*() {
        const repo = yield* TemplateRepository
        for (const name of ["beta", "Alpha", "gamma", "alpha", "Beta"]) yield* repo.insert(aTemplate({ name }))
        expect(names(yield* repo.list(yield* query({})))).toEqual(["Alpha", "alpha", "beta", "Beta", "gamma"])
        expect(names(yield* repo.list(yield* query({ sort: "-name" })))).toEqual(["gamma", "Beta", "beta", "alpha", "Alpha"])
      })))

    it.effect("sorts by updated_at and by several keys", () =>
      run(Effect.gen(function*() {
        const repo = yield* TemplateRepository
        yield* repo.insert(aTemplate({ name: "b", updatedAt: at(30) }))
        yield* repo.insert(aTemplate({ name: "a", updatedAt: at(10) }))
        yield* repo.insert(aTemplate({ name: "c", updatedAt: at(20) }))
        yield* repo.insert(aTemplate({ name: "a", updatedAt: at(40) }))
        expect(names(yield* repo.list(yield* query({ sort: "updated_at" })))).toEqual(["a", "c", "b", "a"])
        expect(names(yield* repo.list(yield* query({ sort: "-updated_at" })))).toEqual(["a", "b", "c", "a"])
        const page = yield* repo.list(yield* query({ sort: "name,-updated_at" }))
        expect(page.items.map((t) => t.updatedAt.getTime())).toEqual([at(40), at(10), at(30), at(20)].map((d) => d.getTime()))
      })))

    it.effect("pages with a total, and answers an empty page past the end", () =>
      run(Effect.gen(function*() {
        const repo = yield* TemplateRepository
        for (let i = 1; i <= 23; i++) yield* repo.insert(aTemplate({ name: `t${String(i).padStart(2, "0")}` }))
        const first = yield* repo.list(yield* query({}))
        expect(first.total).toBe(23)
        expect(names(first)).toHaveLength(15)
        const second = yield* repo.list(yield* query({ page: 2 }))
        expect(names(second)).toEqual(["t16", "t17", "t18", "t19", "t20", "t21", "t22", "t23"])
        const small = yield* repo.list(yield* query({ page: 3, perPage: 5 }))
        expect(names(small)).toEqual(["t11", "t12", "t13", "t14", "t15"])
        const past = yield* repo.list(yield* query({ page: 9 }))
        expect(past).toEqual({ items: [], total: 23 })
      })))

    it.effect("searches names case-insensitively, treating % and _ literally", () =>
      run(Effect.gen(function*() {
        const repo = yield* TemplateRepository
        for (const name of ["Summer Sale", "summer_news", "Winter 50% off", "Autumn"]) {
          yield* repo.insert(aTemplate({ name }))
        }
        const search = (value: string) => Effect.flatMap(query({ filters: { search: value } }), repo.list)
        expect(names(yield* search("SUMMER"))).toEqual(["Summer Sale", "summer_news"])
        expect(names(yield* search("r_"))).toEqual(["summer_news"])
        expect(names(yield* search("50%"))).toEqual(["Winter 50% off"])
        expect((yield* search("%")).total).toBe(1)
        expect((yield* search("nothing")).total).toBe(0)
      })))
  })
