import { escapeHtml } from "../domain/Html.js"
import { htmlToText } from "../domain/HtmlText.js"
import { compileRender, parseTemplate, translateLegacy } from "../sending/TemplateEngine.js"

/** What a transactional mail is written as: subject, html (or Markdown) and optional text, in the template language. */
export interface TransactionalSource {
  readonly subject: string
  readonly body: string
  readonly text: string | null
  readonly markdown: boolean
}

/** A transactional mail with its replacements filled in: what is logged and sent (before tracking). */
export interface RenderedContent {
  readonly subject: string
  readonly html: string
  /** The text given (rendered), or null: then it is derived from the html. */
  readonly text: string | null
}

/** A source compiled once: renders it for a send's replacements; throws a template error on a bad piece. */
export type CompiledContent = (replacements: Readonly<Record<string, unknown>>) => RenderedContent

const LEGACY_KEY = /::([A-Za-z_][\w.]*)::/g

/** The `::key::` replacers of the reference, as Liquid outputs (the known mail variables are translated too). */
const withReplacers = (source: string): string =>
  translateLegacy(source).replace(LEGACY_KEY, (_, key: string) => `{{ ${key} }}`)

/** Which part of the source a template error is in: `subject`, `html` or `text`. */
export class ContentError extends Error {
  constructor(readonly field: "subject" | "html" | "text", reason: unknown) {
    super(`The ${field} does not render: ${reason instanceof Error ? reason.message.split("\n")[0] : String(reason)}.`)
  }
}

/** Runs `f`, turning a template error into a ContentError for `field`. */
const inField = <A>(field: ContentError["field"], f: () => A): A => {
  try {
    return f()
  } catch (error) {
    throw error instanceof ContentError ? error : new ContentError(field, error)
  }
}

/** Markdown syntax, with `:` and `@` for the autolinks of bare URLs and addresses: each is escapable ASCII punctuation. */
const MARKDOWN_SYNTAX = /[\\`*_{}[\]()#+\-.!|~:@]/g

/** A value as Markdown text: its syntax characters backslash-escaped, so a value never becomes a link or an image. */
const markdownLiteral = (value: unknown): unknown =>
  typeof value === "string"
    ? value.replace(MARKDOWN_SYNTAX, "\\$&")
    : Array.isArray(value)
    ? value.map(markdownLiteral)
    : value !== null && typeof value === "object"
    ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, markdownLiteral(item)]))
    : value

/** The html of a mail written as text only: the text, escaped, with its line breaks (an empty html part shows nothing). */
const textAsHtml = (text: string): string => `<div style="white-space:pre-wrap">${escapeHtml(text)}</div>`

/**
 * Compiles a transactional source: Liquid (values escaped in the html, raw in subject and text), Markdown turned
 * into html after the values are filled in (the values as literal Markdown text). Throws a ContentError naming the
 * part that does not parse.
 */
export const compileContent = (source: TransactionalSource, markdownToHtml: (markdown: string) => string): CompiledContent => {
  const subject = inField("subject", () => compileRender(parseTemplate(withReplacers(source.subject), "raw")))
  const body = inField("html", () => compileRender(parseTemplate(withReplacers(source.body), "html")))
  const text = source.text === null ? null : inField("text", () => compileRender(parseTemplate(withReplacers(source.text!), "raw")))
  return (replacements) => {
    const scope = { ...replacements }
    const filled = inField("html", () => body(source.markdown ? markdownLiteral(scope) as object : scope))
    const plain = text === null ? null : inField("text", () => text(scope))
    const html = source.markdown ? markdownToHtml(filled) : filled
    return {
      subject: inField("subject", () => subject(scope)).replace(/\s*[\r\n]+\s*/g, " ").trim(),
      html: html.trim() === "" && plain !== null ? textAsHtml(plain) : html,
      text: plain
    }
  }
}

/** The text alternative of rendered content: the given text, or the html's. */
export const textOf = (content: RenderedContent): string => content.text ?? htmlToText(content.html)
