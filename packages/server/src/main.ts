import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect } from "effect"
import { cli } from "./cli.js"

const exitWith = (error: { readonly message: string }) =>
  Console.error(error.message).pipe(Effect.zipRight(Effect.sync(() => process.exit(1))))

cli(process.argv.slice(2)).pipe(
  Effect.catchTags({ CliError: exitWith, ValidationError: exitWith, NotFound: exitWith }),
  NodeRuntime.runMain
)
