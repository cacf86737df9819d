/** Runs the CLI with the process arguments; exit code 1 with the message for configuration and command errors. */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Console, Effect } from "effect"
import { cli } from "./cli.js"

const exitWith = (error: { readonly message: string }) =>
  Console.error(error.message).pipe(Effect.zipRight(Effect.sync(() => process.exit(1))))

/** The port was taken between the start-up check and the listen: the same one line as the check's. */
const serveFailed = (error: { readonly cause: unknown }) =>
  exitWith({ message: `PORT/HOST: cannot listen (${error.cause instanceof Error ? error.cause.message : String(error.cause)})` })

cli(process.argv.slice(2)).pipe(
  Effect.catchTags({ CliError: exitWith, ValidationError: exitWith, NotFound: exitWith, ServeError: serveFailed }),
  NodeRuntime.runMain
)
