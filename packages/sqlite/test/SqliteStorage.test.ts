import { StorageSuite } from "@mailroom/core/testing"
import { SqliteStorage } from "@mailroom/sqlite"

StorageSuite("sqlite", () => SqliteStorage({ filename: ":memory:" }))
