import { Context, type Effect, type Option } from "effect"
import type { Page } from "../domain/CollectionQuery.js"
import type { EmailListQuery } from "../domain/Collections.js"
import type { EmailList, EmailListSettings } from "../domain/EmailList.js"
import type { EmailListId, EmailListUuid } from "../domain/Ids.js"

/** An email list before the store has given it an id. */
export type NewEmailList = Omit<EmailList, "id">

/** Storage of email lists. Deleting a list removes everything that belongs to it. */
export class EmailListRepository extends Context.Tag("@mailroom/EmailListRepository")<EmailListRepository, {
  readonly insert: (list: NewEmailList) => Effect.Effect<EmailList>
  readonly update: (
    id: EmailListId,
    settings: EmailListSettings & { readonly updatedAt: Date }
  ) => Effect.Effect<Option.Option<EmailList>>
  readonly findById: (id: EmailListId) => Effect.Effect<Option.Option<EmailList>>
  readonly findByUuid: (uuid: EmailListUuid) => Effect.Effect<Option.Option<EmailList>>
  readonly delete: (id: EmailListId) => Effect.Effect<boolean>
  readonly list: (query: EmailListQuery) => Effect.Effect<Page<EmailList>>
}>() {}
