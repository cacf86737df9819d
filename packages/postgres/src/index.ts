export * from "./PostgresIsolatedStorage.js"
export * from "./PostgresStorage.js"
export * from "./postgresConnectionProblem.js"
