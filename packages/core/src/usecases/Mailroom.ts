import { Layer } from "effect"
import type { ApiTokenRepository } from "../ports/ApiTokenRepository.js"
import type { EmailListRepository } from "../ports/EmailListRepository.js"
import type { SuppressionRepository } from "../ports/SuppressionRepository.js"
import type { TemplateRepository } from "../ports/TemplateRepository.js"
import type { Transactor } from "../ports/Transactor.js"
import { EmailLists } from "./EmailLists.js"
import { Suppressions } from "./Suppressions.js"
import { Templates } from "./Templates.js"
import { Tokens } from "./Tokens.js"

/** Every storage port a Mailroom store provides. */
export type Storage = TemplateRepository | EmailListRepository | SuppressionRepository | ApiTokenRepository | Transactor

/** Every use case of Mailroom. */
export type Mailroom = Templates | EmailLists | Suppressions | Tokens

/** All use cases, given a store (MemoryStorage, SqliteStorage or PostgresStorage). */
export const Mailroom: Layer.Layer<Mailroom, never, Storage> = Layer.mergeAll(
  Templates.Default,
  EmailLists.Default,
  Suppressions.Default,
  Tokens.Default
)
