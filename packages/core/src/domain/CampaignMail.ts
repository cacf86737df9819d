/**
 * Campaign mails: the campaign's html and subject are compiled once into parts, then each send is rendered by
 * joining the parts with that subscriber's values (no parsing per mail). Links are replaced by signed click
 * URLs, an open pixel is added, and the unsubscribe URL goes into the List-Unsubscribe headers (RFC 8058).
 */
import { escapeHtml } from "./Html.js"

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

/** Compiles a text (html or subject) into parts; `html` escapes values and rewrites links. */
const compile = (source: string, context: CampaignContext, html: boolean): ReadonlyArray<Part> => {
  const parts: Array<Part> = []
  const value = (text: string) => (html ? escapeHtml(text) : text)
  const urls = (send: SendContext) => sendUrls(context.appUrl, send)
  let last = 0
  for (const match of source.matchAll(token)) {
    const [whole, scope, mustache, legacy, encoded, href] = match
    let part: Part | undefined
    if (scope !== undefined && mustache !== undefined) {
      const kind = scope.toLowerCase()
      part = kind === "subscriber"
        ? (send) => value(attribute(send.recipient, mustache) ?? "")
        : value(kind === "campaign" ? (mustache === "name" ? context.campaignName : "") : mustache === "name" ? context.listName : "")
    } else if (legacy !== undefined || encoded !== undefined) {
      const name = (legacy ?? encoded)!
      const wrap = (text: string) => (encoded !== undefined ? encodeURIComponent(text) : text)
      if (name === "unsubscribeUrl" || name === "preferencesUrl") part = (send) => wrap(urls(send).unsubscribe)
      else if (name === "webviewUrl") part = wrap(`${context.appUrl}/webview/${context.campaignUuid}`)
      else if (name === "sendUuid") part = (send) => wrap(send.sendUuid)
      else if (name === "subscriber.uuid") part = (send) => wrap(send.recipient.uuid)
      else if (name === "list.name") part = value(context.listName)
      else if (name === "campaign.name") part = value(context.campaignName)
      else if (name.startsWith("subscriber.")) {
        const path = name.slice("subscriber.".length)
        part = (send) => {
          const found = attribute(send.recipient, path)
          return found === undefined ? whole : wrap(value(found))
        }
      }
    } else if (href !== undefined && html) {
      const original = href.trim().replace(/&amp;/g, "&")
      const linkId = context.linkIds?.get(original)
      if (linkId !== undefined) part = (send) => `href="${urls(send).click(linkId)}"`
      else if (context.utmTags) part = `href="${escapeHtml(withUtmTags(original, context.campaignName))}"`
    }
    if (part === undefined) continue
    parts.push(source.slice(last, match.index), part)
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

/** A rendered campaign mail for one send. */
export interface RenderedMail {
  readonly subject: string
  readonly html: string
  readonly headers: Readonly<Record<string, string>>
}

/** A campaign compiled once; `render` personalises it for one send. */
export interface CompiledCampaign {
  readonly render: (send: SendContext) => RenderedMail
}

/** Compiles the campaign's html and subject for fast per-send rendering. */
export const compileCampaign = (html: string, subject: string, context: CampaignContext): CompiledCampaign => {
  const pixel = (send: SendContext) =>
    `<img src="${sendUrls(context.appUrl, send).open}" width="1" height="1" alt="" style="display:none">`
  const bodyEnd = html.search(/<\/body>/i)
  const withPixel = !context.trackOpens
    ? compile(html, context, true)
    : bodyEnd >= 0
    ? [...compile(html.slice(0, bodyEnd), context, true), pixel, ...compile(html.slice(bodyEnd), context, true)]
    : [...compile(html, context, true), pixel]
  const subjectParts = compile(subject, context, false)
  const domain = new URL(context.appUrl).hostname
  return {
    render: (send) => {
      const unsubscribe = sendUrls(context.appUrl, send).unsubscribe
      return {
        subject: join(subjectParts, send),
        html: join(withPixel, send),
        headers: {
          "List-Unsubscribe": `<${unsubscribe}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          "List-ID": `<${context.listUuid}.${domain}>`,
          "Precedence": "bulk"
        }
      }
    }
  }
}
