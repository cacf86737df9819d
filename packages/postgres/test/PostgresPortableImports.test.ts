/** The portable import path (multi-row INSERT … RETURNING) that an embedder gets from `SqlStorage` on Postgres. */
import { ImportBatchSuite } from "@mailroom/core/storage-suite"
import { postgresClient, PostgresIsolatedStorage } from "@mailroom/postgres"
import { SqlStorage } from "@mailroom/sql"
import { Layer } from "effect"

const url = process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

ImportBatchSuite("postgres, portable SQL", () =>
  PostgresIsolatedStorage(url, (options) => SqlStorage.pipe(Layer.provideMerge(postgresClient(options)))))
