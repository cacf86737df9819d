export * from "./PostgresIsolatedStorage.js"
export * from "./PostgresStorage.js"
