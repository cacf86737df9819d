/**
 * The template language of mails: Liquid (LiquidJS: no code execution, no file access here), with the reference's
 * `::placeholder::` replacers translated to it. Values are HTML-escaped in html and raw in text and subjects.
 */
import { Context, Liquid, type Template, TypeGuards } from "liquidjs"

/** Where a template's output goes: html escapes every value, raw (text, subjects, URLs) keeps it as it is. */
export type Escaping = "html" | "raw"

/** Tags that would read files: not available in mails. */
const FILE_TAGS = ["include", "render", "layout"]

const engine = (escaping: Escaping): Liquid => {
  const liquid = new Liquid({
    ...(escaping === "html" ? { outputEscape: "escape" as const } : {}),
    ownPropertyOnly: true,
    // fixed, so that dates render alike on every machine; also spares LiquidJS asking Intl at start-up (which maps ~8 MB
    // of ICU data into an idle server)
    locale: "en-US",
    strictFilters: true,
    // a template may not loop or grow without end: bounds per render (ms of CPU, bytes of output)
    renderLimit: 1_000,
    memoryLimit: 50_000_000,
    parseLimit: 50_000_000
  })
  for (const tag of FILE_TAGS) {
    liquid.registerTag(tag, {
      parse() {
        throw new Error(`{% ${tag} %} is not available in mails`)
      },
      render() {
        return ""
      }
    })
  }
  return liquid
}

const engines: Record<Escaping, Liquid> = { html: engine("html"), raw: engine("raw") }

/** Legacy names that stand for URLs or ids of the send, and the Liquid variable each becomes. */
const LEGACY_NAMES = new Set(["unsubscribeUrl", "preferencesUrl", "webviewUrl", "sendUuid"])
const LEGACY = /::([A-Za-z_][A-Za-z0-9_.]*)::|%3A%3A([A-Za-z_][A-Za-z0-9_.]*)%3A%3A/g

/**
 * Translates the reference's replacers to Liquid: `::subscriber.first_name::`, `::subscriber.extra_attributes.x::`,
 * `::list.name::`, `::campaign.name::`, `::unsubscribeUrl::`, `::preferencesUrl::`, `::webviewUrl::`, `::sendUuid::`
 * and their URL-encoded forms (`%3A%3A…%3A%3A`, filled URL-encoded). Other `::words::` are left as they are (text such
 * as `std::vector::size` is not a placeholder); unknown subscriber, list and campaign fields render empty.
 */
export const translateLegacy = (source: string): string =>
  source.replace(LEGACY, (whole, plain: string | undefined, encoded: string | undefined) => {
    const name = (plain ?? encoded)!
    const known = LEGACY_NAMES.has(name) || /^(subscriber|list|campaign)\./.test(name)
    if (!known) return whole
    return encoded !== undefined ? `{{ ${name} | url_encode }}` : `{{ ${name} }}`
  })

/** A template parsed for one escaping: its top-level pieces (fixed text, or Liquid to render per recipient). */
export interface ParsedTemplate {
  readonly pieces: ReadonlyArray<Template>
  readonly escaping: Escaping
}

/** Parses Liquid source (already translated); throws a LiquidJS error with a readable message when it does not parse. */
export const parseTemplate = (source: string, escaping: Escaping): ParsedTemplate => ({
  pieces: engines[escaping].parse(source),
  escaping
})

/** The fixed text of a piece, or null when it must be rendered per recipient. */
export const fixedText = (piece: Template): string | null =>
  TypeGuards.isHTMLToken(piece.token) ? piece.token.getContent() : null

/** Renders some pieces of a parsed template with a scope. */
export const renderPieces = (parsed: ParsedTemplate, pieces: ReadonlyArray<Template>, scope: object): string =>
  engines[parsed.escaping].renderSync(pieces as Array<Template>, scope)

/**
 * A rendering context for the html pieces of one mail: its pieces are rendered one by one in document order, and
 * what `{% assign %}` or `{% capture %}` sets in one is seen by the next.
 */
export const htmlContext = (scope: object): Context =>
  new Context(scope, engines.html.options, { sync: true }, { liquid: engines.html })

/** Renders html pieces in a mail's context. */
export const renderInContext = (context: Context, pieces: ReadonlyArray<Template>): string =>
  engines.html.renderSync(pieces as Array<Template>, context)

/** Parses and renders a whole template at once (subjects, URLs, short texts). */
export const renderTemplate = (parsed: ParsedTemplate, scope: object): string => renderPieces(parsed, parsed.pieces, scope)

const SIMPLE_OUTPUT = /^\{\{\s*([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\s*\}\}$/
const SPECIAL_KEYS = new Set(["size", "first", "last"])
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&#34;", "'": "&#39;" }
const escapeLiquid = (text: string) => (/[&<>"']/.test(text) ? text.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : text)
const isPlain = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== "object" || value === null) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * A plain output such as `{{ subscriber.first_name }}` (a path, no filters) evaluated without the Liquid engine, as
 * Liquid would (own properties only, nil as empty, values escaped the same way); null for any other piece. At render
 * time it answers undefined when the value is not plain data (a Drop, an array, a function), and Liquid renders it.
 */
export const fastOutput = (written: string, escaping: Escaping): ((scope: object) => string | undefined) | null => {
  const match = SIMPLE_OUTPUT.exec(written)
  if (match === null) return null
  const path = match[1]!.split(".")
  if (path.some((key) => SPECIAL_KEYS.has(key))) return null
  return (scope) => {
    let value: unknown = scope
    for (const key of path) {
      if (!isPlain(value)) return undefined
      value = Object.hasOwn(value, key) ? value[key] : undefined
    }
    const text = typeof value === "string"
      ? value
      : value === undefined || value === null
      ? ""
      : typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : undefined
    return text === undefined || escaping === "raw" ? text : escapeLiquid(text)
  }
}

/**
 * A parsed template as a function of its scope: fixed text and plain outputs are joined directly (the common subject
 * or URL), anything else goes through Liquid.
 */
export const compileRender = (parsed: ParsedTemplate): (scope: object) => string => {
  const whole = (scope: object) => renderPieces(parsed, parsed.pieces, scope)
  const parts: Array<string | ((scope: object) => string | undefined)> = []
  for (const piece of parsed.pieces) {
    const text = fixedText(piece)
    const fast = text === null ? fastOutput(piece.token.getText(), parsed.escaping) : null
    if (text === null && fast === null) return whole
    parts.push(text ?? fast!)
  }
  return (scope) => {
    let out = ""
    for (const part of parts) {
      const value = typeof part === "string" ? part : part(scope)
      if (value === undefined) return whole(scope)
      out += value
    }
    return out
  }
}

/** Why `source` (with legacy replacers) is not a valid template, or null when it is. */
export const templateProblem = (source: string): string | null => {
  try {
    engines.html.parse(translateLegacy(source))
    return null
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0]! : String(error)
    return `The template does not parse: ${message}.`
  }
}
