import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { ImportRowErrorCollection, TagCollection } from "../../domain/Collections.js"
import { makeCollectionQuery } from "../../domain/CollectionQuery.js"
import type { EmailListId, SubscriberImportId, SubscriberImportUuid } from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import { importColumns, type ImportRow, importRow, type RejectedRow } from "../../domain/ImportRow.js"
import type { SubscriberImport } from "../../domain/SubscriberImport.js"
import { EmailListRepository } from "../../ports/EmailListRepository.js"
import { ImportBatchRepository, type ImportBatch } from "../../ports/ImportBatchRepository.js"
import { SubscriberImportRepository, type NewSubscriberImport } from "../../ports/SubscriberImportRepository.js"
import { SubscriberRepository } from "../../ports/SubscriberRepository.js"
import { TagRepository } from "../../ports/TagRepository.js"
import type { Storage } from "../../usecases/Mailroom.js"
import { aSubscriber, aTag, anEmailList, at, type MakeStorage } from "./fixtures.js"

/** A draft import into the list with every rule off and no progress, ready to insert. */
export const anImport = (emailListId: EmailListId, overrides: Partial<NewSubscriberImport> = {}): NewSubscriberImport => ({
  uuid: newUuid() as SubscriberImportUuid,
  emailListId,
  status: "draft",
  subscribeUnsubscribed: false,
  unsubscribeOthers: false,
  replaceTags: false,
  importedSubscribersCount: null,
  errorCount: 0,
  processedRows: 0,
  windowRows: 0,
  failureReason: null,
  lockedUntil: null,
  startedAt: null,
  finishedAt: null,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

/** Data lines read with `importRow` under a comma-separated header; lines are numbered from `firstLine`. */
export const parseLines = (header: string, lines: ReadonlyArray<string>, firstLine = 2) => {
  const columns = Either.getOrThrow(importColumns(header.split(",")))
  const rows: Array<ImportRow> = []
  const rejected: Array<RejectedRow> = []
  lines.forEach((line, i) => Either.match(importRow(columns, firstLine + i, line.split(",")), {
    onLeft: (refused) => rejected.push(refused),
    onRight: (row) => rows.push(row)
  }))
  return { rows, rejected }
}

/** How a test shapes one batch: its header, the progress it follows, its time and lease. */
export interface BatchOptions {
  readonly header?: string
  readonly processedBefore?: number
  readonly at?: Date
  readonly leaseUntil?: Date
}

/** A batch of the import's next data lines (after `processedBefore`, default the import's own progress). */
export const aBatch = (subscriberImport: SubscriberImport, lines: ReadonlyArray<string>, options: BatchOptions = {}): ImportBatch => {
  const processedBefore = options.processedBefore ?? subscriberImport.processedRows
  return {
    importId: subscriberImport.id,
    emailListId: subscriberImport.emailListId,
    rules: {
      importId: subscriberImport.id,
      subscribeUnsubscribed: subscriberImport.subscribeUnsubscribed,
      replaceTags: subscriberImport.replaceTags
    },
    ...parseLines(options.header ?? "email,first_name,last_name,tags", lines, processedBefore + 2),
    processedBefore,
    processedAfter: processedBefore + lines.length,
    leaseUntil: options.leaseUntil ?? at(600),
    at: options.at ?? at(100)
  }
}

/** Shared fixtures of the import contracts: a fresh store per test, lists, subscribers, imports, batches and counts. */
export const importFixtures = (makeStorage: MakeStorage) => {
  const run = <A, E>(effect: Effect.Effect<A, E, Storage>) => Effect.provide(effect, makeStorage())
  const aList = Effect.flatMap(EmailListRepository, (r) => Effect.map(r.insert(anEmailList()), (l) => l.id))
  const subscribe = (emailListId: EmailListId, overrides: Parameters<typeof aSubscriber>[1] = {}) =>
    Effect.flatMap(SubscriberRepository, (r) => Effect.map(r.insert(aSubscriber(emailListId, overrides)), Option.getOrThrow))
  const member = (emailListId: EmailListId, email: string) =>
    Effect.flatMap(SubscriberRepository, (r) => Effect.map(r.findByEmail(emailListId, email), Option.getOrThrow))
  const isMember = (emailListId: EmailListId, email: string) =>
    Effect.flatMap(SubscriberRepository, (r) => Effect.map(r.findByEmail(emailListId, email), Option.isSome))
  const tagsOf = (emailListId: EmailListId, ...names: ReadonlyArray<string>) =>
    Effect.flatMap(TagRepository, (r) =>
      Effect.forEach(names, (name) => Effect.map(r.insertOrGet(aTag(emailListId, { name })), ({ tag }) => tag.id)))
  const insertImport = (emailListId: EmailListId, overrides: Partial<NewSubscriberImport> = {}, csv = "email\n") =>
    Effect.flatMap(SubscriberImportRepository, (r) => r.insert(anImport(emailListId, overrides), csv))
  /** An import the worker is running (status importing, nothing processed yet). */
  const importing = (emailListId: EmailListId, overrides: Partial<NewSubscriberImport> = {}) =>
    insertImport(emailListId, { status: "importing", importedSubscribersCount: 0, startedAt: at(50), ...overrides })
  const found = (id: SubscriberImportId) =>
    Effect.flatMap(SubscriberImportRepository, (r) => Effect.map(r.findById(id), Option.getOrThrow))
  /** Writes the batch and returns the import as stored afterwards (to chain the next batch). */
  const write = (subscriberImport: SubscriberImport, lines: ReadonlyArray<string>, options: BatchOptions = {}) =>
    Effect.gen(function*() {
      const written = yield* Effect.flatMap(ImportBatchRepository, (r) => r.write(aBatch(subscriberImport, lines, options)))
      return { written, after: yield* found(subscriberImport.id) }
    })
  /** One page of an import's refused rows (sorted by line unless told). */
  const errors = (id: SubscriberImportId, options: { readonly sort?: string; readonly page?: number; readonly perPage?: number } = {}) =>
    Effect.gen(function*() {
      const query = yield* makeCollectionQuery(ImportRowErrorCollection, { perPage: 100, ...options })
      const page = yield* Effect.flatMap(SubscriberImportRepository, (r) => r.errors(id, query))
      return { total: page.total, rows: page.items.map(({ line, email, reason }) => ({ line, email, reason })) }
    })
  /** Subscribers per status, each counter checked against the rows (a search matching every address counts rows). */
  const statusCounts = (emailListId: EmailListId) =>
    Effect.gen(function*() {
      const subscribers = yield* SubscriberRepository
      const list = Option.getOrThrow(yield* Effect.flatMap(EmailListRepository, (r) => r.findById(emailListId)))
      const counts = { subscribed: 0, unconfirmed: 0, unsubscribed: 0 }
      for (const status of ["subscribed", "unconfirmed", "unsubscribed"] as const) {
        counts[status] = yield* subscribers.count({ emailListId, status })
        expect(yield* subscribers.count({ emailListId, status, search: "@" }), `${status} counter`).toBe(counts[status])
      }
      expect(list.activeSubscribersCount, "active counter").toBe(counts.subscribed)
      expect(yield* subscribers.count({ emailListId }), "total").toBe(counts.subscribed + counts.unconfirmed + counts.unsubscribed)
      return counts
    })
  /** The list's tags as `name: subscriberCount`, each count checked against the subscribers carrying the tag. */
  const tagCounts = (emailListId: EmailListId) =>
    Effect.gen(function*() {
      const query = yield* makeCollectionQuery(TagCollection, { perPage: 100 })
      const tags = yield* Effect.flatMap(TagRepository, (r) => r.list(emailListId, query))
      const counts: Record<string, number> = {}
      for (const tag of tags.items) {
        const carrying = yield* Effect.flatMap(SubscriberRepository, (r) => r.count({ emailListId, tags: { ids: [tag.id], all: false } }))
        expect(tag.subscriberCount, `subscriber count of tag ${tag.name}`).toBe(carrying)
        counts[tag.name] = tag.subscriberCount
      }
      return counts
    })
  return { run, aList, subscribe, member, isMember, tagsOf, insertImport, importing, found, write, errors, statusCounts, tagCounts }
}
