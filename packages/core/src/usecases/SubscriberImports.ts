import { Chunk, Effect, Either, Option, Stream } from "effect"
import type { ImportRowErrorQuery, SubscriberImportQuery } from "../domain/Collections.js"
import type { EmailListId, SubscriberImportUuid } from "../domain/Ids.js"
import { newUuid } from "../domain/Ids.js"
import { importColumns } from "../domain/ImportRow.js"
import { importAllows, importTransitions } from "../domain/ImportStatus.js"
import type { SubscriberImport } from "../domain/SubscriberImport.js"
import type { SubscriberImportAppend, SubscriberImportInput } from "../domain/SubscriberImportInput.js"
import { InvalidState } from "../errors/InvalidState.js"
import { ValidationError } from "../errors/ValidationError.js"
import { CsvParser } from "../ports/CsvParser.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { SubscriberImportRepository } from "../ports/SubscriberImportRepository.js"
import { findByRef, orNotFound, parseIntId } from "./lookup.js"
import { now } from "./now.js"
import { wakeWorker } from "./WorkSignal.js"

const HEADER_PROBE = 65_536

/** Subscriber imports as a client sees them: drafts that take CSV text, then start; the worker does the rest. */
export class SubscriberImports extends Effect.Service<SubscriberImports>()("@mailroom/SubscriberImports", {
  effect: Effect.gen(function*() {
    const repo = yield* SubscriberImportRepository
    const lists = yield* EmailListRepository
    const csv = yield* CsvParser

    const find = (ref: string) => findByRef("Subscriber import", ref, repo.findByUuid, repo.findById)

    /**
     * What is wrong with the CSV's header row, if anything: none when it is fine, or when the first line has not fully
     * arrived yet and more text may follow (`complete` false).
     */
    const headerProblem = (texts: ReadonlyArray<string>, complete: boolean): Effect.Effect<Option.Option<string>> => {
      let head = ""
      for (const text of texts) {
        head += text.slice(0, HEADER_PROBE - head.length)
        if (head.length >= HEADER_PROBE) break
      }
      const newline = head.indexOf("\n")
      if (newline < 0 && !complete) return Effect.succeedNone
      return Effect.scoped(Effect.gen(function*() {
        const reader = yield* csv.reader
        const first = [...yield* reader.push(newline < 0 ? head : head.slice(0, newline + 1)), ...yield* reader.end][0]
        if (first === undefined) return Option.some("The CSV is empty: its first row must be a header with an email column.")
        return first._tag === "Record" ? Either.getLeft(importColumns(first.fields)) : Option.some(first.reason)
      }))
    }

    const listOf = (id: number) =>
      Effect.flatMap(Option.isSome(parseIntId(String(id))) ? lists.findById(id as EmailListId) : Effect.succeedNone, Option.match({
        onNone: () => Effect.fail(ValidationError.field("email_list_id", "The selected email list id is invalid.")),
        onSome: (list) => Effect.succeed(list)
      }))

    const draftOnly = (subscriberImport: SubscriberImport) =>
      importAllows(subscriberImport.status, "edit")
        ? Effect.succeed(subscriberImport)
        : Effect.fail(new InvalidState({ message: "Cannot update a non-draft import." }))

    /** An import's stored CSV as a stream of its parts, read one at a time (never all held at once). */
    const partsOf = (id: SubscriberImport["id"]): Stream.Stream<string> =>
      Stream.paginateChunkEffect(0, (after: number) =>
        Effect.map(repo.csvParts(id, after, 1), (parts) => [
          Chunk.fromIterable(parts.map((part) => part.text)),
          parts.length === 0 ? Option.none() : Option.some(parts[parts.length - 1]!.seq)
        ] as const))

    /**
     * A draft's CSV as a stream of its stored parts (a response can then carry a CSV of any size without holding it
     * whole); null when the import is not a draft.
     */
    const csvChunks = (subscriberImport: SubscriberImport): Stream.Stream<string> | null =>
      subscriberImport.status !== "draft" ? null : partsOf(subscriberImport.id)

    const list = Effect.fn("SubscriberImports.list")(function*(query: SubscriberImportQuery) {
      return yield* repo.list(query)
    })

    const get = Effect.fn("SubscriberImports.get")(function*(ref: string) {
      return yield* find(ref)
    })

    const create = Effect.fn("SubscriberImports.create")(function*(input: SubscriberImportInput) {
      const list = yield* listOf(input.emailListId)
      const at = yield* now
      return yield* repo.insert({
        uuid: newUuid() as SubscriberImportUuid,
        emailListId: list.id,
        status: "draft",
        subscribeUnsubscribed: input.subscribeUnsubscribed,
        unsubscribeOthers: input.unsubscribeOthers,
        replaceTags: input.replaceTags ?? false,
        importedSubscribersCount: null,
        errorCount: 0,
        processedRows: 0,
        windowRows: 0,
        failureReason: null,
        lockedUntil: null,
        startedAt: null,
        finishedAt: null,
        createdAt: at,
        updatedAt: at
      }, input.subscribersCsv)
    })

    const update = Effect.fn("SubscriberImports.update")(function*(ref: string, input: SubscriberImportInput) {
      const current = yield* Effect.flatMap(find(ref), draftOnly)
      const list = yield* listOf(input.emailListId)
      const settings = {
        emailListId: list.id,
        subscribeUnsubscribed: input.subscribeUnsubscribed,
        unsubscribeOthers: input.unsubscribeOthers,
        replaceTags: input.replaceTags ?? current.replaceTags,
        updatedAt: yield* now
      }
      return yield* repo.replace(current.id, settings, input.subscribersCsv).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new InvalidState({ message: "Cannot update a non-draft import." })),
          onSome: Effect.succeed
        }))
      )
    })

    const append = Effect.fn("SubscriberImports.append")(function*(ref: string, input: SubscriberImportAppend) {
      const current = yield* Effect.flatMap(find(ref), draftOnly)
      return yield* repo.append(current.id, input.subscribersCsv, yield* now).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new InvalidState({ message: "Cannot update a non-draft import." })),
          onSome: Effect.succeed
        }))
      )
    })

    const remove = Effect.fn("SubscriberImports.remove")(function*(ref: string) {
      const subscriberImport = yield* find(ref)
      yield* repo.delete(subscriberImport.id)
    })

    /**
     * Hands a draft to the worker (status pending) when its CSV has a header with an email column; without one the
     * import is deleted and the answer is 422 `errors.file` (behaviors.md section 11).
     */
    const start = Effect.fn("SubscriberImports.start")(function*(ref: string) {
      const current = yield* find(ref)
      if (!importAllows(current.status, "start")) return yield* new InvalidState({ message: "Cannot start a non-draft import." })
      yield* listOf(current.emailListId)
      // read parts until the first line is complete (or the probe is full, or the text ends)
      const texts: Array<string> = []
      let length = 0
      let newline = false
      const more = () => !newline && length < HEADER_PROBE
      yield* Stream.runForEachWhile(partsOf(current.id), (text) =>
        Effect.sync(() => {
          texts.push(text)
          length += text.length
          newline ||= text.includes("\n")
          return more()
        }))
      const problem = yield* headerProblem(texts, more())
      if (Option.isSome(problem)) {
        yield* repo.delete(current.id)
        return yield* ValidationError.field("file", `No header row with an email column found: ${problem.value}`)
      }
      const { from, to } = importTransitions.start
      yield* repo.transition(current.id, from, to, { updatedAt: yield* now }).pipe(
        orNotFound("Subscriber import"),
        Effect.catchTag("NotFound", () => new InvalidState({ message: "Cannot start a non-draft import." }))
      )
      yield* wakeWorker("imports")
    })

    /** The rows the import refused so far, in CSV order. */
    const errors = Effect.fn("SubscriberImports.errors")(function*(ref: string, query: ImportRowErrorQuery) {
      const subscriberImport = yield* find(ref)
      return yield* repo.errors(subscriberImport.id, query)
    })

    return { list, get, csvChunks, create, update, append, remove, start, errors } as const
  })
}) {}
