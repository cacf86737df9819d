import { afterAll } from "@effect/vitest"
import { StorageSuite } from "@mailroom/core/storage-suite"
import { sharedSchemaStorage } from "./sharedSchemaStorage.js"

const url = process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

const stores = sharedSchemaStorage(url)
afterAll(stores.drop)

StorageSuite("postgres", stores.storage)
