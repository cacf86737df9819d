export * from "./PostgresIsolatedStorage.js"
export * from "./PostgresStorage.js"
export * from "./postgresConnectionProblem.js"
export { copyField, type CopyValue } from "./imports/copyRows.js"
