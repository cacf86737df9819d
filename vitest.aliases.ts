import { fileURLToPath } from "node:url"

const src = (path: string) => fileURLToPath(new URL(`./packages/${path}`, import.meta.url))

/** Resolves every @mailroom/* import to its TypeScript source, so tests and examples need no build. */
export const aliases = {
  "@mailroom/core/testing": src("core/src/testing/index.ts"),
  "@mailroom/core/storage-suite": src("core/src/testing/StorageSuite.ts"),
  "@mailroom/core": src("core/src/index.ts"),
  "@mailroom/sql": src("sql/src/index.ts"),
  "@mailroom/sqlite": src("sqlite/src/index.ts"),
  "@mailroom/postgres": src("postgres/src/index.ts"),
  "@mailroom/smtp/testing": src("smtp/src/testing/index.ts"),
  "@mailroom/smtp": src("smtp/src/index.ts"),
  "@mailroom/csv": src("csv/src/index.ts"),
  "@mailroom/http": src("http/src/index.ts"),
  "@mailroom/server": src("server/src/index.ts")
}
