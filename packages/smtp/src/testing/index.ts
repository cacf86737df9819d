export * from "./FaultySmtpServer.js"
