import { SqlClient } from "@effect/sql"
import { SettingsRepository } from "@mailroom/core"
import { Effect, Layer } from "effect"

/** SettingsRepository over SqlClient; the first writer of a key wins (ON CONFLICT DO NOTHING). */
export const SqlSettingsRepository = Layer.effect(
  SettingsRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    SettingsRepository.of({
      getOrInit: (key, initial) =>
        Effect.gen(function*() {
          yield* sql`INSERT INTO settings ${sql.insert({ key, value: initial })} ON CONFLICT DO NOTHING`
          const rows = yield* sql<{ readonly value: string }>`SELECT value FROM settings WHERE key = ${key}`
          return rows[0]!.value
        }).pipe(Effect.orDie)
    }))
)
