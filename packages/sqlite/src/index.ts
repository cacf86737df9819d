export * from "./SqliteStorage.js"
export * from "./sqliteBackup.js"
