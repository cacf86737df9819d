/** The portable import path (multi-row INSERT … RETURNING) that an embedder gets from `SqlStorage` on Postgres. */
import { afterAll } from "@effect/vitest"
import { ImportBatchSuite } from "@mailroom/core/storage-suite"
import { postgresClient } from "@mailroom/postgres"
import { SqlStorage } from "@mailroom/sql"
import { Layer } from "effect"
import { sharedSchemaStorage } from "./sharedSchemaStorage.js"

const url = process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

const stores = sharedSchemaStorage(url, (options) => SqlStorage.pipe(Layer.provideMerge(postgresClient(options))))
afterAll(stores.drop)

ImportBatchSuite("postgres, portable SQL", stores.storage)
