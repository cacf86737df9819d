export * from "./CsvParseReader.js"
