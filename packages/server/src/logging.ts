import { Cause, FiberRef, HashMap, HashSet, Inspectable, Layer, List, Logger, LogLevel } from "effect"
import { prettyLineLogger } from "./prettyLineLogger.js"
import type { LogFormat, LogLevelName } from "./ServerConfig.js"

const LEVELS: Record<LogLevelName, LogLevel.LogLevel> = {
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warn: LogLevel.Warning,
  error: LogLevel.Error
}

const levelNames: Record<string, string> = { DEBUG: "debug", INFO: "info", WARN: "warn", ERROR: "error", FATAL: "fatal", TRACE: "trace" }

/**
 * One JSON object per line: `time` (ISO 8601), `level` (debug, info, warn, error), `message`, `annotations` (an
 * object, possibly empty), and `spans` (ms since each log span began) and `cause` when there are any.
 */
export const jsonLineLogger = Logger.make(({ annotations, cause, date, logLevel, message, spans }) => {
  const messages = Array.isArray(message) ? message : [message]
  const line: Record<string, unknown> = {
    time: date.toISOString(),
    level: levelNames[logLevel.label] ?? logLevel.label.toLowerCase(),
    message: messages.length === 1 ? messages[0] : messages,
    annotations: Object.fromEntries(HashMap.toEntries(annotations))
  }
  if (List.isCons(spans)) {
    const now = date.getTime()
    line["spans"] = Object.fromEntries(List.toArray(spans).map((span) => [span.label, now - span.startTime]))
  }
  if (!Cause.isEmpty(cause)) line["cause"] = Cause.pretty(cause, { renderErrorCause: true })
  process.stdout.write(`${Inspectable.stringifyCircular(line)}\n`)
})

/** Effect's human format, each entry written to stdout at once (colored on a terminal). */
const prettyStdoutLogger = prettyLineLogger((text) => process.stdout.write(text), process.stdout.isTTY === true)

/**
 * The logger of LOG_FORMAT at LOG_LEVEL: `json` replaces the default (or the runtime's pretty) logger with
 * `jsonLineLogger`; `pretty` with Effect's human format written in one piece (`prettyLineLogger`). Provided outermost, so every line of the process, the start
 * included, goes through it.
 */
export const LoggingLive = (options: { readonly format: LogFormat; readonly level: LogLevelName }): Layer.Layer<never> =>
  Layer.merge(
    Layer.fiberRefLocallyScopedWith(FiberRef.currentLoggers, (loggers) =>
      loggers.pipe(
        HashSet.remove(Logger.defaultLogger),
        HashSet.remove(Logger.prettyLoggerDefault),
        HashSet.add(options.format === "json" ? jsonLineLogger : prettyStdoutLogger)
      )),
    Logger.minimumLogLevel(LEVELS[options.level])
  )
