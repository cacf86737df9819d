export * from "./CsvParseReader.js"
export * from "./CsvThreadReader.js"
export * from "./csvRecordReader.js"
