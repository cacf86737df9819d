/** IMPORT_WINDOW_ROWS: sorted windows by default on SQLite, where they pay, the CSV's order on Postgres, either when set. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { ServerConfig } from "../src/ServerConfig.js"

const windowRows = (env: Record<string, string>) =>
  Effect.map(Effect.withConfigProvider(ServerConfig, ConfigProvider.fromMap(new Map(Object.entries(env)))), (c) => c.importWindowRows)

describe("IMPORT_WINDOW_ROWS", () => {
  it.effect("defaults to 40,000 on SQLite and 0 on Postgres; a setting wins on either", () =>
    Effect.gen(function*() {
      expect(yield* windowRows({ DATABASE_URL: "sqlite:./data/mailroom.db" })).toBe(40_000)
      expect(yield* windowRows({ DATABASE_URL: "postgres://mailroom@db/mailroom" })).toBe(0)
      expect(yield* windowRows({ DATABASE_URL: "sqlite:./data/mailroom.db", IMPORT_WINDOW_ROWS: "0" })).toBe(0)
      expect(yield* windowRows({ DATABASE_URL: "postgres://mailroom@db/mailroom", IMPORT_WINDOW_ROWS: "20000" })).toBe(20_000)
    }))
})
