import { StorageSuite } from "@mailroom/core/storage-suite"
import { SqliteStorage } from "@mailroom/sqlite"

StorageSuite("sqlite", () => SqliteStorage({ filename: ":memory:" }))
