/** The former regex-chain htmlToText, kept as the reference the fast scanner is compared with. */
const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: " " }

const decodeEntity = (entity: string, body: string): string => {
  if (body[0] === "#") {
    const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity
  }
  return ENTITIES[body.toLowerCase()] ?? entity
}

const stripTags = (html: string): string => html.replace(/<[^>]*>/g, "")

/** A readable plain-text rendering of an HTML body: block tags become line breaks, links keep their URL. */
export const htmlToTextReference = (html: string): string =>
  html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<(head|style|script|title)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/\s+/g, " ")
    .replace(/<a\b[^>]*?\bhref\s*=\s*(["'])(.*?)\1[^>]*>([\s\S]*?)<\/a\s*>/gi, (_, _q: string, href: string, inner: string) => {
      const label = stripTags(inner).trim()
      return /^https?:/i.test(href) && label !== href ? `${label} (${href})` : label
    })
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(/<\/(p|h[1-6]|blockquote|table|ul|ol)\s*>/gi, "\n\n")
    .replace(/<\/(div|tr|section|article|header|footer)\s*>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, decodeEntity)
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
