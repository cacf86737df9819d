export * from "./SqliteStorage.js"
