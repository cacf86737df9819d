import { dirname } from "node:path"
import { smtpUrlProblem } from "@mailroom/smtp"
import { Effect, Option } from "effect"
import { CliError } from "../CliError.js"
import type { EnvironmentConfig } from "../ServerConfig.js"
import { isSupportedDatabaseUrl } from "../storageFromUrl.js"
import { directoryProblem } from "./ensureWritableDirectory.js"
import { portProblem } from "./portProblem.js"

/** Commands that open the database. */
const usesDatabase = new Set(["serve", "worker", "migrate", "token:create", "token:list", "token:revoke"])

/** Commands that send mail. */
const sendsMail = new Set(["serve", "worker"])

const fail = (message: string) => new CliError({ message })

/**
 * Checks the settings a command needs before anything is built, so that a bad one ends the process with one line naming
 * the variable and the cause, and nothing (no migration, no half-open port) has happened: the SMTP URL's form, the
 * SQLite and outbox folders, the port (before migrations run) and the Postgres connection.
 */
export const preflight = (config: EnvironmentConfig, command: string) =>
  Effect.gen(function*() {
    const url = config.databaseUrl
    if (!isSupportedDatabaseUrl(url)) {
      return yield* fail("DATABASE_URL: must be sqlite:PATH, sqlite::memory: or postgres://user:password@host:port/database")
    }
    if (config.smtpUrl !== null) {
      const problem = smtpUrlProblem(config.smtpUrl)
      if (problem !== undefined) return yield* fail(`SMTP_URL: ${problem}`)
    }
    if (sendsMail.has(command) && config.smtpUrl === null) {
      const problem = directoryProblem(config.outboxDirectory)
      if (problem !== undefined) return yield* fail(`OUTBOX_DIR: ${problem}`)
    }
    if (command === "serve") {
      const problem = yield* Effect.promise(() => portProblem(config.host, config.port))
      if (problem !== undefined) return yield* fail(problem)
    }
    if (!usesDatabase.has(command)) return
    if (url.startsWith("sqlite:")) {
      const file = url.slice("sqlite:".length)
      if (file === "" || file === ":memory:") return
      const problem = directoryProblem(dirname(file))
      if (problem !== undefined) return yield* fail(`DATABASE_URL: the database folder ${problem}`)
      return
    }
    const { postgresConnectionProblem } = yield* Effect.promise(() => import("@mailroom/postgres"))
    const problem = yield* postgresConnectionProblem(url)
    if (Option.isSome(problem)) return yield* fail(`DATABASE_URL: ${problem.value}`)
  })
