export * from "./MemoryStorage.js"
