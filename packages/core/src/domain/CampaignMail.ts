/**
 * Campaign mails: the campaign's html and subject are compiled once into parts, then each send is rendered by
 * joining the parts with that subscriber's values (no parsing per mail). Links are replaced by signed click
 * URLs, an open pixel is added, and the unsubscribe URL goes into the List-Unsubscribe headers (RFC 8058).
 */
import { escapeHtml } from "./Html.js"
import { htmlToText } from "./HtmlText.js"
import { type BodyLayout, fillLayout, type MailLayout } from "./MailLayout.js"

/** What a rendered mail may mention of its recipient. */
export interface Recipient {
  readonly uuid: string
  readonly email: string
  readonly firstName: string | null
  readonly lastName: string | null
  readonly extraAttributes: Readonly<Record<string, unknown>>
}

/** Per-send values: the send's uuid, its signature and the recipient. */
export interface SendContext {
  readonly sendUuid: string
  readonly signature: string
  readonly recipient: Recipient
}

/** Fixed values of one campaign, known at compile time. */
export interface CampaignContext {
  readonly appUrl: string
  readonly campaignUuid: string
  readonly campaignName: string
  readonly listUuid: string
  readonly listName: string
  /** Tracked link id per original URL (absent: tracking off, links stay as they are). */
  readonly linkIds?: ReadonlyMap<string, number>
  readonly trackOpens: boolean
  readonly utmTags: boolean
}

type Part = string | ((send: SendContext) => string)

const attribute = (recipient: Recipient, path: string): string | undefined => {
  const key = path.replace(/^extra_attributes\./, "")
  const fixed: Record<string, string | null> = {
    first_name: recipient.firstName,
    last_name: recipient.lastName,
    email: recipient.email,
    uuid: recipient.uuid
  }
  if (key in fixed) return fixed[key] ?? ""
  const value = recipient.extraAttributes[key]
  return value === undefined || value === null ? undefined : typeof value === "object" ? JSON.stringify(value) : String(value)
}

/** URLs of a send, all on APP_URL and signed so they cannot be guessed. */
export const sendUrls = (appUrl: string, send: { readonly sendUuid: string; readonly signature: string }) => ({
  unsubscribe: `${appUrl}/u/${send.sendUuid}/${send.signature}`,
  open: `${appUrl}/t/o/${send.sendUuid}/${send.signature}`,
  click: (linkId: number) => `${appUrl}/t/c/${send.sendUuid}/${linkId}/${send.signature}`
})

/** Adds utm_source, utm_medium and utm_campaign to an http(s) URL, keeping parameters already there. */
export const withUtmTags = (url: string, campaignName: string): string => {
  try {
    const parsed = new URL(url)
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return url
    const slug = campaignName.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")
    for (const [key, value] of [["utm_source", "newsletter"], ["utm_medium", "email"], ["utm_campaign", slug]] as const) {
      if (!parsed.searchParams.has(key)) parsed.searchParams.set(key, value)
    }
    return parsed.toString()
  } catch {
    return url
  }
}

/** The http(s) links of an html body that get click tracking (placeholders, mailto: and anchors excluded). */
export const trackableLinks = (html: string): Array<string> => {
  const links = new Set<string>()
  for (const match of html.matchAll(/href\s*=\s*"([^"]+)"/gi)) {
    const url = match[1]!.trim().replace(/&amp;/g, "&")
    if (/^https?:\/\//i.test(url) && !url.includes("::") && !url.includes("{{")) links.add(url)
  }
  return [...links]
}

const token = /\{\{\s*(subscriber|campaign|list)\.([A-Za-z0-9_.-]+)\s*\}\}|::([A-Za-z0-9_.]+)::|%3A%3A([A-Za-z0-9_.]+)%3A%3A|href\s*=\s*"(https?:\/\/[^"]+)"/gi

/**
 * How a source is compiled: `escape` HTML-escapes per-send values, `escapeFixed` the campaign's own (list and campaign
 * names), `links` rewrites `href`s to tracked URLs.
 */
interface Mode {
  readonly escape: boolean
  readonly escapeFixed: boolean
  readonly links: boolean
}

/**
 * Compiles a text (html or subject) into parts, as `mode` says. The same placeholder gives the same part, within a
 * text (so the text fallback can tell a link labelled with its own URL) and across the texts of one campaign when
 * its value does not depend on escaping (links and URLs are then computed once per send for html and text).
 */
const compile = (source: string, context: CampaignContext, mode: Mode, seen: Map<string, Part>): ReadonlyArray<Part> => {
  const parts: Array<Part> = []
  const value = (text: string) => (mode.escape ? escapeHtml(text) : text)
  const fixed = (text: string) => (mode.escapeFixed ? escapeHtml(text) : text)
  const urls = (send: SendContext) => sendUrls(context.appUrl, send)
  const once = (key: string, part: Part | undefined, escaped: boolean) => {
    if (part === undefined || typeof part === "string") return part
    const shared = escaped ? `${mode.escape ? "html" : "text"}:${key}` : key
    return seen.get(shared) ?? (seen.set(shared, part), part)
  }
  let last = 0
  for (const match of source.matchAll(token)) {
    const [whole, scope, mustache, legacy, encoded, href] = match
    let part: Part | undefined
    if (scope !== undefined && mustache !== undefined) {
      const kind = scope.toLowerCase()
      part = kind === "subscriber"
        ? (send) => value(attribute(send.recipient, mustache) ?? "")
        : fixed(kind === "campaign" ? (mustache === "name" ? context.campaignName : "") : mustache === "name" ? context.listName : "")
    } else if (legacy !== undefined || encoded !== undefined) {
      const name = (legacy ?? encoded)!
      const wrap = (text: string) => (encoded !== undefined ? encodeURIComponent(text) : text)
      if (name === "unsubscribeUrl" || name === "preferencesUrl") part = (send) => wrap(urls(send).unsubscribe)
      else if (name === "webviewUrl") part = wrap(`${context.appUrl}/webview/${context.campaignUuid}`)
      else if (name === "sendUuid") part = (send) => wrap(send.sendUuid)
      else if (name === "subscriber.uuid") part = (send) => wrap(send.recipient.uuid)
      else if (name === "list.name") part = fixed(context.listName)
      else if (name === "campaign.name") part = fixed(context.campaignName)
      else if (name.startsWith("subscriber.")) {
        const path = name.slice("subscriber.".length)
        part = (send) => {
          const found = attribute(send.recipient, path)
          return found === undefined ? whole : wrap(value(found))
        }
      }
    } else if (href !== undefined && mode.links) {
      const original = href.trim().replace(/&amp;/g, "&")
      const linkId = context.linkIds?.get(original)
      if (linkId !== undefined) part = once(whole, (send) => urls(send).click(linkId), false)
      else if (context.utmTags) part = escapeHtml(withUtmTags(original, context.campaignName))
      if (part !== undefined) {
        parts.push(source.slice(last, match.index), "href=\"", part, "\"")
        last = match.index + whole.length
      }
      continue
    }
    if (part === undefined) continue
    // subscriber values differ between the escaped html and the plain text; URLs and ids do not
    const escaped = scope !== undefined || (legacy ?? encoded ?? "").startsWith("subscriber.")
    parts.push(source.slice(last, match.index), once(whole, part, escaped)!)
    last = match.index + whole.length
  }
  parts.push(source.slice(last))
  return parts.filter((part) => part !== "")
}

const join = (parts: ReadonlyArray<Part>, send: SendContext): string => {
  let out = ""
  for (const part of parts) out += typeof part === "string" ? part : part(send)
  return out
}

const MARKER = /https:\/\/x\uE000(\d+)\uE001/g

/**
 * The text fallback compiled once: htmlToText over the html with every personal part replaced by a URL-shaped marker
 * (so link targets survive as `label (url)`), then the markers split out again as parts. Null when the html itself
 * holds marker characters or a marker did not come through whole; then each mail computes its own text.
 */
const compileText = (parts: ReadonlyArray<Part>): ReadonlyArray<Part> | null => {
  const dynamic: Array<Part> = []
  const indexes = new Map<Part, number>()
  let marked = ""
  for (const part of parts) {
    if (typeof part === "string") {
      if (/[\uE000\uE001]/.test(part)) return null
      marked += part
    } else {
      if (!indexes.has(part)) indexes.set(part, dynamic.push(part) - 1)
      marked += `https://x\uE000${indexes.get(part)}\uE001`
    }
  }
  const text = htmlToText(marked)
  const result: Array<Part> = []
  let last = 0
  for (const match of text.matchAll(MARKER)) {
    result.push(text.slice(last, match.index), dynamic[Number(match[1])]!)
    last = match.index + match[0].length
  }
  result.push(text.slice(last))
  return result.some((part) => typeof part === "string" && /[\uE000\uE001]/.test(part)) ? null : result
}

/** A rendered campaign mail for one send. */
export interface RenderedMail {
  readonly subject: string
  readonly html: string
  /** The plain-text alternative, when it could be compiled (else the mailer derives it from `html`). */
  readonly text?: string
  readonly headers: Readonly<Record<string, string>>
}

/** The parts of one send's mail that are not the bodies. */
export interface MailEnvelope {
  readonly subject: string
  readonly headers: Readonly<Record<string, string>>
}

/**
 * A campaign compiled once. `render` personalises it whole for one send; for a bulk mailer, `layout` (null when the
 * text alternative could not be compiled) holds the bodies with numbered holes, `values` a send's hole values and
 * `envelope` its subject and headers.
 */
export interface CompiledCampaign {
  readonly render: (send: SendContext) => RenderedMail
  readonly layout: MailLayout | null
  readonly values: (send: SendContext) => Array<string>
  readonly envelope: (send: SendContext) => MailEnvelope
}

/** Compiles the campaign's html and subject for fast per-send rendering. */
export const compileCampaign = (html: string, subject: string, context: CampaignContext): CompiledCampaign => {
  const pixel = (send: SendContext) =>
    `<img src="${sendUrls(context.appUrl, send).open}" width="1" height="1" alt="" style="display:none">`
  const bodyEnd = html.search(/<\/body>/i)
  const asHtml = { escape: true, escapeFixed: true, links: true }
  const seen = new Map<string, Part>()
  const withPixel = !context.trackOpens
    ? compile(html, context, asHtml, seen)
    : bodyEnd >= 0
    ? [...compile(html.slice(0, bodyEnd), context, asHtml, seen), pixel, ...compile(html.slice(bodyEnd), context, asHtml, seen)]
    : [...compile(html, context, asHtml, seen), pixel]
  const textParts = compileText(compile(html, context, { escape: false, escapeFixed: true, links: true }, seen))
  const subjectParts = compile(subject, context, { escape: false, escapeFixed: false, links: false }, new Map())
  const domain = new URL(context.appUrl).hostname

  // every personal part becomes a numbered hole, shared by the html and text layouts
  const holes: Array<(send: SendContext) => string> = []
  const numbers = new Map<Part, number>()
  const toLayout = (parts: ReadonlyArray<Part>): BodyLayout => {
    const layout: Array<string | number> = []
    for (const part of parts) {
      if (typeof part !== "string") {
        if (!numbers.has(part)) numbers.set(part, holes.push(part) - 1)
        layout.push(numbers.get(part)!)
      } else if (typeof layout[layout.length - 1] === "string") layout[layout.length - 1] += part
      else layout.push(part)
    }
    return layout
  }
  const htmlLayout = toLayout(withPixel)
  const textLayout = textParts === null ? null : toLayout(textParts)
  const values = (send: SendContext) => holes.map((hole) => hole(send))
  const envelope = (send: SendContext): MailEnvelope => ({
    subject: join(subjectParts, send),
    headers: {
      "List-Unsubscribe": `<${sendUrls(context.appUrl, send).unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      "List-ID": `<${context.listUuid}.${domain}>`,
      "Precedence": "bulk"
    }
  })
  return {
    layout: textLayout === null ? null : { html: htmlLayout, text: textLayout },
    values,
    envelope,
    render: (send) => {
      const filled = values(send)
      return {
        ...envelope(send),
        html: fillLayout(htmlLayout, filled),
        ...(textLayout === null ? {} : { text: fillLayout(textLayout, filled) })
      }
    }
  }
}
