import { formatWithOptions } from "node:util"
import { Cause, FiberId, Inspectable, List, Logger, LogSpan } from "effect"

const LEVEL_COLORS: Record<string, ReadonlyArray<number>> = {
  TRACE: [90],
  DEBUG: [34],
  INFO: [32],
  WARN: [33],
  ERROR: [31],
  FATAL: [101, 30]
}

const pad = (n: number, width = 2) => n.toString().padStart(width, "0")

/**
 * Effect's pretty log format (`[time] LEVEL (#fiber) spans: message`, then the cause, further message parts and each
 * annotation on lines of their own, indented), written to `write` in one piece: Effect's own pretty logger makes four
 * `console.log` calls and a console group for a request's line, each a write of its own. Colored when `colors`.
 */
export const prettyLineLogger = (write: (text: string) => void, colors: boolean) => {
  const color = (text: string, ...codes: ReadonlyArray<number>) =>
    colors ? `${codes.map((code) => `\x1b[${code}m`).join("")}${text}\x1b[0m` : text
  const format = (...values: ReadonlyArray<unknown>) => formatWithOptions({ colors }, ...values)
  const indented = (text: string) => `  ${text.replaceAll("\n", "\n  ")}\n`
  /**
   * An annotation's line as `format` makes it; a string, or a number printed without colors, is written as it is
   * (what `format` makes of it after a key without a `%`), which saves a request's line ~3 calls to `util.inspect`.
   */
  const annotation = (key: string, value: unknown) => {
    const label = color(`${key}:`, 1, 37)
    if (!key.includes("%")) {
      if (typeof value === "string" && !value.includes("\n")) return `  ${label} ${value}\n`
      if (typeof value === "number" && !colors && !Object.is(value, -0)) return `  ${label} ${value}\n`
    }
    return indented(format(label, Inspectable.redact(value)))
  }
  return Logger.make(({ annotations, cause, date, fiberId, logLevel, message, spans }) => {
    const messages = Array.isArray(message) ? message : [message]
    const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`
    let text = `${color(`[${time}]`, 37)} ${color(logLevel.label, ...(LEVEL_COLORS[logLevel.label] ?? []))} (${FiberId.threadName(fiberId)})`
    if (List.isCons(spans)) {
      const render = LogSpan.render(date.getTime())
      for (const span of spans) text += ` ${render(span)}`
    }
    text += ":"
    let next = 0
    if (typeof messages[0] === "string") text += ` ${color(messages[next++] as string, 1, 36)}`
    text += "\n"
    if (!Cause.isEmpty(cause)) text += indented(Cause.pretty(cause, { renderErrorCause: true }))
    for (; next < messages.length; next++) text += indented(format(Inspectable.redact(messages[next])))
    for (const [key, value] of annotations) text += annotation(key, value)
    write(text)
  })
}
