import { Ability, type AutomationRunner, type AutomationTriggers, type Mailroom, Tokens, type WebhookDispatcher, type WebhookSender } from "@mailroom/core"
import { existsSync } from "node:fs"
import { Console, Effect, Schema } from "effect"
import { CliError } from "./CliError.js"
import { configSummary } from "./configSummary.js"
import { dkimKeys, DkimSettings } from "./dkimKeys.js"
import { feedbackChecks } from "./feedback/feedbackChecks.js"
import { FeedbackSettings } from "./feedback/FeedbackSettings.js"
import { idleCollection, idleCollectionSummary } from "./idleCollection.js"
import { MailroomFromConfig, runWorkers } from "./MailroomFromConfig.js"
import { ServerConfig } from "./ServerConfig.js"
import { configErrorMessage } from "./startup/configErrorMessage.js"
import { preflight } from "./startup/preflight.js"


const usage = `Usage: mailroom <command>
  serve                                     run the HTTP server with a job worker (default)
  worker                                    run only the background workers (several may share one Postgres)
  migrate                                   apply database migrations and exit
  backup FILE                               copy the live SQLite database to FILE (online, consistent)
  token:create --name NAME [--ability A]…   issue an API token (abilities: all, read, write, send; default all)
  token:list                                list tokens (never their secrets)
  token:revoke UUID                         delete a token`

/** Values of a repeatable `--flag value` option. */
const option = (args: ReadonlyArray<string>, flag: string): Array<string> =>
  args.flatMap((arg, i) => (arg === flag && args[i + 1] !== undefined ? [args[i + 1]!] : arg.startsWith(`${flag}=`) ? [arg.slice(flag.length + 1)] : []))

const withMailroom = <A, E>(config: ServerConfig, effect: Effect.Effect<A, E, Mailroom | WebhookDispatcher | WebhookSender | AutomationRunner | AutomationTriggers>) =>
  Effect.scoped(Effect.provide(effect, MailroomFromConfig(config)))

export { CliError }

const tokenCreate = (args: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const name = option(args, "--name")[0]
    if (name === undefined) return yield* new CliError({ message: `token:create needs --name.\n${usage}` })
    const requested = option(args, "--ability")
    const abilities = yield* Schema.decodeUnknown(Schema.Array(Ability))(requested.length === 0 ? ["all"] : requested).pipe(
      Effect.mapError(() => new CliError({ message: `Unknown ability in ${requested.join(", ")}. Use all, read, write or send.` }))
    )
    const { secret, token } = yield* Effect.flatMap(Tokens, (tokens) => tokens.create(name, abilities))
    yield* Console.log(`Token "${token.name}" (${token.uuid}) with abilities ${token.abilities.join(", ")}.`)
    yield* Console.log("Store it now; it is not shown again:")
    yield* Console.log(secret)
  })

const tokenList = Effect.gen(function*() {
  const tokens = yield* Effect.flatMap(Tokens, (tokens) => tokens.list())
  if (tokens.length === 0) yield* Console.log("No tokens.")
  for (const token of tokens) {
    yield* Console.log(`${token.uuid}  ${token.name}  [${token.abilities.join(", ")}]  created ${token.createdAt.toISOString()}`)
  }
})

const tokenRevoke = (uuid: string | undefined) =>
  Effect.gen(function*() {
    if (uuid === undefined) return yield* new CliError({ message: `token:revoke needs a token uuid.\n${usage}` })
    yield* Effect.flatMap(Tokens, (tokens) => tokens.revoke(uuid))
    yield* Console.log(`Revoked ${uuid}.`)
  })

/** Copies the SQLite database to a new file while the server may keep running. */
const backup = (databaseUrl: string, destination: string | undefined) =>
  Effect.gen(function*() {
    if (destination === undefined) return yield* new CliError({ message: `backup needs a destination file.\n${usage}` })
    if (!databaseUrl.startsWith("sqlite:") || /^sqlite:(:memory:)?$/.test(databaseUrl)) {
      return yield* new CliError({ message: "backup: DATABASE_URL is not a SQLite file; back up Postgres with pg_dump (see README, Backups)" })
    }
    const source = databaseUrl.slice("sqlite:".length)
    if (!existsSync(source)) return yield* new CliError({ message: `backup: there is no database at ${source} (DATABASE_URL)` })
    if (existsSync(destination)) return yield* new CliError({ message: `backup: ${destination} exists; name a new file` })
    const { sqliteBackup } = yield* Effect.promise(() => import("@mailroom/sqlite"))
    const pages = yield* sqliteBackup(source, destination).pipe(
      Effect.mapError((error) => new CliError({ message: `backup: ${error.message}` }))
    )
    yield* Console.log(`Backed up ${pages} pages to ${destination}.`)
  })

/** The settings in effect, in one log line without secrets; then node's version, heap settings, malloc settings, idle collection. */
const logConfiguration = (config: ServerConfig) =>
  Effect.zipRight(
    Effect.logInfo(`Configuration: ${Object.entries(configSummary(config)).map(([key, value]) => `${key}=${value}`).join(" ")}`),
    Effect.logInfo(`Node ${process.version}, heap settings: ${process.execArgv.filter((flag) => flag.startsWith("--")).join(" ") || "node's defaults"}, ` +
      `malloc arenas: ${process.env["MALLOC_ARENA_MAX"] ?? "glibc's default"}, ` +
      `malloc mmap threshold: ${process.env["MALLOC_MMAP_THRESHOLD_"] ?? "glibc's default"}, heap collected: ${idleCollectionSummary()}`)
  )

/** The environment's configuration with its DKIM keys and feedback checks; a bad value fails naming its variable. */
const loadConfig = Effect.gen(function*() {
  return {
    ...yield* ServerConfig,
    dkim: yield* dkimKeys(yield* DkimSettings),
    feedback: yield* feedbackChecks(yield* FeedbackSettings)
  }
}).pipe(Effect.catchTag("ConfigError", (error) => new CliError({ message: configErrorMessage(error) })))

/** Runs one CLI command with the given arguments (argv without node and script). */
export const cli = (argv: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const [command = "serve", ...args] = argv
    if (command === "help" || command === "--help" || command === "-h") return yield* Console.log(usage)
    const config = yield* loadConfig
    yield* preflight(config, command)
    switch (command) {
      case "serve": {
        // loaded on demand: the HTTP layers (and Swagger UI's assets) are half of what node would parse for a CLI call
        const { serve } = yield* Effect.promise(() => import("./serve.js"))
        return yield* serve(config, logConfiguration(config))
      }
      case "worker":
        return yield* withMailroom(
          config,
          Effect.zipRight(
            Effect.zipRight(logConfiguration(config), Console.log("Worker running (jobs, campaign, transactional and automation mail delivery, imports, webhooks, automations).")),
            Effect.zipRight(Effect.fork(idleCollection()), runWorkers)
          )
        )
      case "migrate":
        return yield* withMailroom(config, Console.log("Database is up to date."))
      case "backup":
        return yield* backup(config.databaseUrl, args[0])
      case "token:create":
        return yield* withMailroom(config, tokenCreate(args))
      case "token:list":
        return yield* withMailroom(config, tokenList)
      case "token:revoke":
        return yield* withMailroom(config, tokenRevoke(args[0]))
      default:
        return yield* new CliError({ message: `Unknown command ${command}.\n${usage}` })
    }
  })
