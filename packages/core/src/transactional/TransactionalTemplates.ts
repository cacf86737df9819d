import { Effect, Option } from "effect"
import { newUuid } from "../domain/Ids.js"
import { ValidationError } from "../errors/ValidationError.js"
import { Transactor } from "../ports/Transactor.js"
import { templateProblem } from "../sending/TemplateEngine.js"
import { findByRef, orNotFound } from "../usecases/lookup.js"
import { now } from "../usecases/now.js"
import type { TransactionalTemplateQuery } from "./TransactionalCollections.js"
import type { TransactionalTemplateUuid } from "./TransactionalIds.js"
import type { ListedTransactionalTemplate, TransactionalTemplate } from "./TransactionalTemplate.js"
import type { TransactionalTemplateInput } from "./TransactionalTemplateInput.js"
import {
  type TransactionalTemplateChanges,
  TransactionalTemplateRepository
} from "./TransactionalTemplateRepository.js"

/** The stored fields of a template from its input (a full replace: absent fields take their defaults). */
const changesOf = (input: TransactionalTemplateInput, at: Date): TransactionalTemplateChanges => ({
  name: input.name.trim(),
  subject: input.subject ?? "",
  html: input.html ?? "",
  text: input.text ?? null,
  type: input.type ?? "html",
  to: input.to ?? null,
  cc: input.cc ?? null,
  bcc: input.bcc ?? null,
  storeMail: input.storeMail ?? true,
  trackOpens: input.trackOpens ?? true,
  trackClicks: input.trackClicks ?? true,
  updatedAt: at
})

/** Transactional mail templates: CRUD by uuid (or integer id), names unique ignoring case, with their statistics. */
export class TransactionalTemplates extends Effect.Service<TransactionalTemplates>()("@mailroom/TransactionalTemplates", {
  effect: Effect.gen(function*() {
    const repo = yield* TransactionalTemplateRepository
    const { withTransaction } = yield* Transactor

    const find = (ref: string) => findByRef("Transactional mail template", ref, repo.findByUuid, repo.findById)
    const listed = (template: TransactionalTemplate) =>
      Effect.map(repo.statistics(template.id), (statistics): ListedTransactionalTemplate => ({ template, statistics }))

    /** Refuses a name taken by another template and subject, html or text that is not a valid template. */
    const checked = (changes: TransactionalTemplateChanges, self: TransactionalTemplate | null) =>
      Effect.gen(function*() {
        const errors: Record<string, Array<string>> = {}
        const taken = yield* repo.findByName(changes.name)
        if (Option.isSome(taken) && taken.value.id !== self?.id) errors["name"] = ["The name has already been taken."]
        for (const [field, source] of [["subject", changes.subject], ["html", changes.html], ["text", changes.text]] as const) {
          const problem = source === null ? null : templateProblem(source)
          if (problem !== null) errors[field] = [problem]
        }
        if (Object.keys(errors).length > 0) return yield* Effect.fail(ValidationError.fromErrors(errors))
      })

    const list = Effect.fn("TransactionalTemplates.list")(function*(query: TransactionalTemplateQuery) {
      return yield* repo.list(query)
    })

    const get = Effect.fn("TransactionalTemplates.get")(function*(ref: string) {
      return yield* listed(yield* find(ref))
    })

    const create = Effect.fn("TransactionalTemplates.create")(function*(input: TransactionalTemplateInput) {
      const at = yield* now
      const changes = changesOf(input, at)
      return yield* withTransaction(Effect.gen(function*() {
        yield* checked(changes, null)
        const template = yield* repo.insert({ ...changes, uuid: newUuid() as TransactionalTemplateUuid, createdAt: at })
        return yield* listed(template)
      }))
    })

    const update = Effect.fn("TransactionalTemplates.update")(function*(ref: string, input: TransactionalTemplateInput) {
      const at = yield* now
      const changes = changesOf(input, at)
      return yield* withTransaction(Effect.gen(function*() {
        const template = yield* find(ref)
        yield* checked(changes, template)
        return yield* listed(yield* repo.update(template.id, changes).pipe(orNotFound("Transactional mail template")))
      }))
    })

    /** Deletes the template; its logged mails stay (their `mail_name` still says which it was). */
    const remove = Effect.fn("TransactionalTemplates.remove")(function*(ref: string) {
      const template = yield* find(ref)
      yield* repo.delete(template.id)
    })

    return { list, get, create, update, remove, find } as const
  })
}) {}
