import { MemoryStorage, StorageSuite } from "@mailroom/core/testing"

StorageSuite("memory", () => MemoryStorage)
