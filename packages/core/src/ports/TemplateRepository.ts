import { Context, type Effect, type Option } from "effect"
import type { Page } from "../domain/CollectionQuery.js"
import type { TemplateQuery } from "../domain/Collections.js"
import type { TemplateId, TemplateUuid } from "../domain/Ids.js"
import type { Template } from "../domain/Template.js"

/** A template before the store has given it an id. */
export type NewTemplate = Omit<Template, "id">

/** The writable part of a template. */
export type TemplateChanges = Pick<Template, "name" | "html" | "structuredHtml" | "updatedAt">

/** Storage of templates. Infrastructure failures are defects. */
export class TemplateRepository extends Context.Tag("@mailroom/TemplateRepository")<TemplateRepository, {
  readonly insert: (template: NewTemplate) => Effect.Effect<Template>
  readonly update: (id: TemplateId, changes: TemplateChanges) => Effect.Effect<Option.Option<Template>>
  readonly findById: (id: TemplateId) => Effect.Effect<Option.Option<Template>>
  readonly findByUuid: (uuid: TemplateUuid) => Effect.Effect<Option.Option<Template>>
  readonly delete: (id: TemplateId) => Effect.Effect<boolean>
  readonly list: (query: TemplateQuery) => Effect.Effect<Page<Template>>
}>() {}
