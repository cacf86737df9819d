import { StorageSuite } from "@mailroom/core/storage-suite"
import { PostgresIsolatedStorage } from "@mailroom/postgres"

const url = process.env["PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

StorageSuite("postgres", () => PostgresIsolatedStorage(url))
