import { Effect, Option } from "effect"
import { ApiToken } from "../../domain/ApiToken.js"
import type { ApiTokenId } from "../../domain/Ids.js"
import { ApiTokenRepository } from "../../ports/ApiTokenRepository.js"
import type { MemoryState } from "./MemoryState.js"

/** ApiTokenRepository over the in-memory state. */
export const makeMemoryApiTokenRepository = (state: MemoryState) => {
  const rows = () => state.tables.apiTokens
  return ApiTokenRepository.of({
    insert: (token) =>
      Effect.sync(() => {
        const row = new ApiToken({ ...token, id: state.nextId("apiTokens") as ApiTokenId })
        rows().set(row.id, row)
        return row
      }),
    findByHash: (tokenHash) =>
      Effect.sync(() => Option.fromNullable([...rows().values()].find((t) => t.tokenHash === tokenHash))),
    list: () => Effect.sync(() => [...rows().values()].sort((a, b) => a.id - b.id)),
    delete: (uuid) =>
      Effect.sync(() => {
        const row = [...rows().values()].find((t) => t.uuid === uuid)
        return row !== undefined && rows().delete(row.id)
      })
  })
}
