import { ConfigError } from "effect"

/** A problem's line: `VARIABLE: message`, or the message alone when it names its variable itself (no path). */
const line = (path: ReadonlyArray<string>, message: string) => (path.length === 0 ? [message] : [`${path.join("_")}: ${message}`])

/** One line per problem of a configuration error, each starting with the variable it is about. */
export const configErrorMessage = (error: ConfigError.ConfigError): string => {
  const lines = ConfigError.reduceWithContext(error, undefined, {
    andCase: (_, left: Array<string>, right: Array<string>) => [...left, ...right],
    orCase: (_, left: Array<string>, right: Array<string>) => [...left, ...right],
    invalidDataCase: (_, path, message) => line(path, message),
    missingDataCase: (_, path, message) => line(path, message),
    sourceUnavailableCase: (_, path, message) => line(path, message),
    unsupportedCase: (_, path, message) => line(path, message)
  })
  return [...new Set(lines)].join("; ")
}
