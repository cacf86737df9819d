import { StorageSuite } from "@mailroom/core/storage-suite"
import { MemoryStorage } from "@mailroom/core/testing"

StorageSuite("memory", () => MemoryStorage)
