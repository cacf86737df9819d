/** Runs the CLI with the process arguments; exit code 1 with the message for configuration and command errors. */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Console, Effect } from "effect"
import { cli } from "./cli.js"

const exitWith = (error: { readonly message: string }) =>
  Console.error(error.message).pipe(Effect.zipRight(Effect.sync(() => process.exit(1))))

cli(process.argv.slice(2)).pipe(
  Effect.catchTags({ CliError: exitWith, ValidationError: exitWith, NotFound: exitWith }),
  NodeRuntime.runMain
)
