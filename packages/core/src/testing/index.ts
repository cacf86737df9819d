export * from "./MemoryStorage.js"
export * from "./MemoryMailer.js"
