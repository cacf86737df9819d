import { Context, type Effect, type Option } from "effect"
import type { Page } from "../domain/CollectionQuery.js"
import type { TransactionalTemplateQuery } from "./TransactionalCollections.js"
import type { TransactionalTemplateId, TransactionalTemplateUuid } from "./TransactionalIds.js"
import type {
  ListedTransactionalTemplate,
  TransactionalTemplate,
  TransactionalTemplateStatistics
} from "./TransactionalTemplate.js"

/** A transactional template before the store has given it an id. */
export type NewTransactionalTemplate = Omit<TransactionalTemplate, "id">

/** The writable part of a transactional template (everything but its ids and creation time). */
export type TransactionalTemplateChanges = Omit<TransactionalTemplate, "id" | "uuid" | "createdAt">

/** Storage of transactional templates; names are unique ignoring case. Infrastructure failures are defects. */
export class TransactionalTemplateRepository extends Context.Tag("@mailroom/TransactionalTemplateRepository")<
  TransactionalTemplateRepository,
  {
    readonly insert: (template: NewTransactionalTemplate) => Effect.Effect<TransactionalTemplate>
    readonly update: (
      id: TransactionalTemplateId,
      changes: TransactionalTemplateChanges
    ) => Effect.Effect<Option.Option<TransactionalTemplate>>
    readonly findById: (id: TransactionalTemplateId) => Effect.Effect<Option.Option<TransactionalTemplate>>
    readonly findByUuid: (uuid: TransactionalTemplateUuid) => Effect.Effect<Option.Option<TransactionalTemplate>>
    /** The template with this name, ignoring case. */
    readonly findByName: (name: string) => Effect.Effect<Option.Option<TransactionalTemplate>>
    readonly delete: (id: TransactionalTemplateId) => Effect.Effect<boolean>
    /** A page of templates with their statistics. */
    readonly list: (query: TransactionalTemplateQuery) => Effect.Effect<Page<ListedTransactionalTemplate>>
    /** What the template's mails did, over the sends of its log items. */
    readonly statistics: (id: TransactionalTemplateId) => Effect.Effect<TransactionalTemplateStatistics>
  }
>() {}
