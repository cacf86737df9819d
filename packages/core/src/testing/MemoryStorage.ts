import { Context, Effect, Layer } from "effect"
import { ApiTokenRepository } from "../ports/ApiTokenRepository.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { SuppressionRepository } from "../ports/SuppressionRepository.js"
import { TemplateRepository } from "../ports/TemplateRepository.js"
import { Transactor } from "../ports/Transactor.js"
import { makeMemoryApiTokenRepository } from "./memory/MemoryApiTokenRepository.js"
import { makeMemoryEmailListRepository } from "./memory/MemoryEmailListRepository.js"
import { MemoryState } from "./memory/MemoryState.js"
import { makeMemorySuppressionRepository } from "./memory/MemorySuppressionRepository.js"
import { makeMemoryTemplateRepository } from "./memory/MemoryTemplateRepository.js"
import { makeMemoryTransactor } from "./memory/MemoryTransactor.js"

/** Every storage port, in memory: for tests and for embedding without a database. Each build starts empty. */
export const MemoryStorage: Layer.Layer<
  TemplateRepository | EmailListRepository | SuppressionRepository | ApiTokenRepository | Transactor
> = Layer.effectContext(
  Effect.gen(function*() {
    const state = new MemoryState()
    return Context.empty().pipe(
      Context.add(Transactor, yield* makeMemoryTransactor(state)),
      Context.add(TemplateRepository, makeMemoryTemplateRepository(state)),
      Context.add(EmailListRepository, makeMemoryEmailListRepository(state)),
      Context.add(SuppressionRepository, makeMemorySuppressionRepository(state)),
      Context.add(ApiTokenRepository, makeMemoryApiTokenRepository(state))
    )
  })
)
