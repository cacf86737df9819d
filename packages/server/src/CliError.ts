import { Schema } from "effect"

/** A command-line or configuration failure: printed as is, exit code 1. */
export class CliError extends Schema.TaggedError<CliError>()("CliError", { message: Schema.String }) {}
