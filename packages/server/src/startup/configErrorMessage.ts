import { ConfigError } from "effect"

/** One line per problem of a configuration error, each starting with the variable it is about. */
export const configErrorMessage = (error: ConfigError.ConfigError): string => {
  const lines = ConfigError.reduceWithContext(error, undefined, {
    andCase: (_, left: Array<string>, right: Array<string>) => [...left, ...right],
    orCase: (_, left: Array<string>, right: Array<string>) => [...left, ...right],
    invalidDataCase: (_, path, message) => [`${path.join("_")}: ${message}`],
    missingDataCase: (_, path, message) => [`${path.join("_")}: ${message}`],
    sourceUnavailableCase: (_, path, message) => [`${path.join("_")}: ${message}`],
    unsupportedCase: (_, path, message) => [`${path.join("_")}: ${message}`]
  })
  return [...new Set(lines)].join("; ")
}
