export * from "./MemoryStorage.js"
export * from "./StorageSuite.js"
