import { Effect } from "effect"
import type { TemplateQuery } from "../domain/Collections.js"
import { newUuid, type TemplateUuid } from "../domain/Ids.js"
import { DEFAULT_TEMPLATE_HTML } from "../domain/Template.js"
import type { TemplateInput } from "../domain/TemplateInput.js"
import { ValidationError } from "../errors/ValidationError.js"
import { TemplateRepository } from "../ports/TemplateRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { templateProblem } from "../sending/TemplateEngine.js"
import { findByRef, orNotFound } from "./lookup.js"
import { now } from "./now.js"

/** Templates: reusable layouts, addressed by uuid or integer id. */
export class Templates extends Effect.Service<Templates>()("@mailroom/Templates", {
  effect: Effect.gen(function*() {
    const repo = yield* TemplateRepository
    const { withTransaction } = yield* Transactor

    const find = (ref: string) => findByRef("Template", ref, repo.findByUuid, repo.findById)

    const list = Effect.fn("Templates.list")(function*(query: TemplateQuery) {
      return yield* repo.list(query)
    })

    const get = Effect.fn("Templates.get")(function*(ref: string) {
      return yield* find(ref)
    })

    /** A template whose html is not valid Liquid is refused (422 `errors.html`): it would only make broken mails. */
    const checked = (html: string) => {
      const problem = templateProblem(html)
      return problem === null ? Effect.void : Effect.fail(ValidationError.field("html", problem))
    }

    const create = Effect.fn("Templates.create")(function*(input: TemplateInput) {
      yield* checked(input.html ?? DEFAULT_TEMPLATE_HTML)
      const at = yield* now
      return yield* repo.insert({
        uuid: newUuid() as TemplateUuid,
        name: input.name.trim(),
        html: input.html ?? DEFAULT_TEMPLATE_HTML,
        structuredHtml: input.structuredHtml ?? null,
        createdAt: at,
        updatedAt: at
      })
    })

    const update = Effect.fn("Templates.update")(function*(ref: string, input: TemplateInput) {
      yield* checked(input.html ?? "")
      const at = yield* now
      return yield* withTransaction(
        Effect.flatMap(find(ref), (template) =>
          repo.update(template.id, {
            name: input.name.trim(),
            html: input.html ?? "",
            structuredHtml: input.structuredHtml ?? null,
            updatedAt: at
          }).pipe(orNotFound("Template")))
      )
    })

    const remove = Effect.fn("Templates.remove")(function*(ref: string) {
      const template = yield* find(ref)
      yield* repo.delete(template.id)
    })

    return { list, get, create, update, remove } as const
  })
}) {}
