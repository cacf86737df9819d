/**
 * Mails compiled once and rendered per recipient. The html and subject are Liquid (legacy replacers translated);
 * the html's fixed text is kept as it is and only its Liquid pieces are rendered per mail, in document order, in one
 * context. Links are rewritten to tracked click URLs (personalised ones too: the redirect fills them per subscriber),
 * an open pixel is added, and the unsubscribe URL goes into the List-Unsubscribe headers (RFC 8058).
 */
import type { Template } from "liquidjs"
import { Drop } from "liquidjs"
import { escapeHtml } from "../domain/Html.js"
import { htmlToText } from "../domain/HtmlText.js"
import { type BodyLayout, fillLayout, type MailLayout } from "../domain/MailLayout.js"
import { isPersonal, openPixel, rewriteLinks, withUtmTags } from "./links.js"
import { envelopeSender } from "./MailIdentity.js"
import { mailScope, type MailScopeSource, type SendContext } from "./mailScope.js"
import type { publicLinks } from "./PublicLinks.js"
import {
  compileRender,
  fastOutput,
  fixedText,
  htmlContext,
  parseTemplate,
  renderInContext,
  translateLegacy
} from "./TemplateEngine.js"

/** What a mail is compiled from. */
export interface MailSource extends MailScopeSource {
  readonly html: string
  readonly subject: string
  /** The signed id (UrlSigner.linkToken) of each click-tracked link, by the link as written; the others are not tracked. */
  readonly linkTokens: ReadonlyMap<string, string>
  readonly trackOpens: boolean
  readonly utmTags: boolean
  /** Headers of a mail to a list: List-Unsubscribe (one-click), List-ID, Precedence. */
  readonly listHeaders: boolean
  /** Where bounces go and the Feedback-ID sender (MailIdentity); none when absent. */
  readonly identity?: { readonly bounceAddress: string | null; readonly feedbackId: string | null }
}

/** A rendered mail for one send: its envelope, and its bodies. */
export interface RenderedMail extends MailEnvelope {
  readonly html: string
  /** The plain-text alternative, when it could be compiled (else the mailer derives it from `html`). */
  readonly text?: string
}

/** The parts of one send's mail that are not the bodies. */
export interface MailEnvelope {
  readonly subject: string
  readonly headers: Readonly<Record<string, string>>
  /** The envelope sender, when bounces go elsewhere than the From address. */
  readonly envelopeFrom: string | null
}

/**
 * A mail compiled once. `render` personalises it whole for one send; for a bulk mailer, `layout` (null when the text
 * alternative could not be compiled) holds the bodies with numbered holes, and `personalise` gives a send's subject,
 * headers and hole values.
 */
export interface CompiledMail {
  readonly render: (send: SendContext) => RenderedMail
  readonly layout: MailLayout | null
  readonly personalise: (send: SendContext) => { readonly envelope: MailEnvelope; readonly values: Array<string> }
}

/** One send's rendering: its Liquid scope and context, and the values computed so far. */
interface Run {
  readonly send: SendContext
  readonly scope: Record<string, unknown>
  /** The Liquid context of the html, made when a piece first needs Liquid. */
  readonly context: () => ReturnType<typeof htmlContext>
  readonly done: Map<Hole, string>
}

/** A part rendered per send: its html, and its text (derived from the html or computed alike). */
interface Hole {
  readonly html: (run: Run) => string
  readonly text: (run: Run) => string
}

type Part = string | Hole

const ENTITY = /&(amp|lt|gt|quot|#34|#39);/g
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: "\"", "#34": "\"", "#39": "'" }
const unescapeHtml = (text: string) => (text.includes("&") ? text.replace(ENTITY, (_, name: string) => ENTITIES[name]!) : text)

/** A hole computed once per send (memoized in the run), with its text derived from its html. */
const hole = (html: (run: Run) => string, text: (html: string, run: Run) => string): Hole => {
  const self: Hole = {
    html: (run) => {
      const done = run.done.get(self)
      if (done !== undefined) return done
      const value = html(run)
      run.done.set(self, value)
      return value
    },
    text: (run) => text(self.html(run), run)
  }
  return self
}

/** The link addresses of a send, by the index `rewriteLinks` gave them, as Liquid sees them (`{{ _link.l3 }}`). */
class LinkDrop extends Drop {
  constructor(private readonly resolve: (index: number) => string) {
    super()
  }
  override liquidMethodMissing(key: string): string {
    return this.resolve(Number(key.slice(1)))
  }
}

const MARKER = /https:\/\/x\uE000(\d+)\uE001/g
const LINK_OUTPUT = /^\{\{ _link\.l(\d+) \}\}$/
const ASSIGNING = /\{%-?\s*(assign|capture|increment|decrement|cycle)\b/

/**
 * The text alternative compiled once: htmlToText over the html with every hole replaced by a URL-shaped marker (so
 * link targets survive as `label (url)`), then the markers split out again as the holes' texts. Null when the html
 * itself holds marker characters or a marker did not come through whole; then each mail computes its own text.
 */
const compileText = (parts: ReadonlyArray<Part>): ReadonlyArray<string | ((run: Run) => string)> | null => {
  const holes: Array<Hole> = []
  const indexes = new Map<Hole, number>()
  let marked = ""
  for (const part of parts) {
    if (typeof part === "string") {
      if (/[\uE000\uE001]/.test(part)) return null
      marked += part
    } else {
      if (!indexes.has(part)) indexes.set(part, holes.push(part) - 1)
      marked += `https://x\uE000${indexes.get(part)}\uE001`
    }
  }
  const text = htmlToText(marked)
  const result: Array<string | ((run: Run) => string)> = []
  let last = 0
  for (const match of text.matchAll(MARKER)) {
    result.push(text.slice(last, match.index), holes[Number(match[1])]!.text)
    last = match.index + match[0].length
  }
  result.push(text.slice(last))
  return result.some((part) => typeof part === "string" && /[\uE000\uE001]/.test(part)) ? null : result
}

/** Compiles a mail's html and subject for fast per-send rendering; throws when the source is not valid Liquid. */
export const compileMail = (source: MailSource, links: ReturnType<typeof publicLinks>): CompiledMail => {
  const campaignName = source.campaign?.name ?? ""
  const { html: rewritten, links: written } = rewriteLinks(
    translateLegacy(source.html),
    (url) => !source.linkTokens.has(url) && !isPersonal(url) && !source.utmTags
  )
  // the address of each rewritten link for a send: a click URL when tracked, else the link (filled) with utm tags
  const linkUrls = written.map((url): (run: Run) => string => {
    const token = source.linkTokens.get(url)
    if (token !== undefined) return (run) => links.click(run.send, token)
    const tagged = (filled: string) => (source.utmTags ? withUtmTags(filled, campaignName) : filled)
    if (!isPersonal(url)) {
      const fixed = tagged(url)
      return () => fixed
    }
    const template = compileRender(parseTemplate(url, "raw"))
    return (run) => tagged(template(run.scope))
  })
  const linkHoles = linkUrls.map((url) => hole((run) => escapeHtml(url(run)), (_, run) => url(run)))

  const parsed = parseTemplate(rewritten, "html")
  // without assignments the same value written twice is the same hole (a link labelled with its own address stays
  // one address in the text); with them, a value may change between two places
  const assigns = ASSIGNING.test(rewritten)
  const values = new Map<string, Hole>()
  const pieceHole = (piece: Template): Hole => {
    const written = piece.token.getText()
    const link = LINK_OUTPUT.exec(written)
    if (link !== null) return linkHoles[Number(link[1])]!
    const isValue = written.startsWith("{{")
    const seen = isValue && !assigns ? values.get(written) : undefined
    if (seen !== undefined) return seen
    // a plain value without assignments around is read directly; a value's text is the value unescaped, a block's
    // the text of what it rendered
    const fast = isValue && !assigns ? fastOutput(written, "html") : null
    const made = hole(
      (run) => fast?.(run.scope) ?? renderInContext(run.context(), [piece]),
      isValue ? unescapeHtml : (html) => htmlToText(html)
    )
    if (isValue) values.set(written, made)
    return made
  }
  const pixel = hole((run) => openPixel(links.open(run.send)), () => "")

  const parts: Array<Part> = []
  let pixelPlaced = !source.trackOpens
  const pieces = parsed.pieces
  for (let i = 0; i < pieces.length; i++) {
    const text = fixedText(pieces[i]!)
    if (text === null) {
      parts.push(pieceHole(pieces[i]!))
      continue
    }
    const bodyEnd = pixelPlaced ? -1 : lastBodyEnd(pieces, i, text)
    if (bodyEnd < 0) parts.push(text)
    else {
      parts.push(text.slice(0, bodyEnd), pixel, text.slice(bodyEnd))
      pixelPlaced = true
    }
  }
  if (!pixelPlaced) parts.push(pixel)
  const htmlParts = parts.filter((part) => part !== "")
  const subject = compileRender(parseTemplate(translateLegacy(source.subject), "raw"))

  // every hole becomes a numbered value, shared by the html and text layouts
  const holes: Array<(run: Run) => string> = []
  const numbers = new Map<(run: Run) => string, number>()
  const toLayout = (layoutParts: ReadonlyArray<string | ((run: Run) => string)>): BodyLayout => {
    const layout: Array<string | number> = []
    for (const part of layoutParts) {
      if (typeof part !== "string") {
        if (!numbers.has(part)) numbers.set(part, holes.push(part) - 1)
        layout.push(numbers.get(part)!)
      } else if (typeof layout[layout.length - 1] === "string") layout[layout.length - 1] += part
      else if (part !== "") layout.push(part)
    }
    return layout
  }
  const htmlLayout = toLayout(htmlParts.map((part) => (typeof part === "string" ? part : part.html)))
  // the pixel is an image: no text
  const textParts = compileText(htmlParts.filter((part) => part !== pixel))
  const textLayout = textParts === null ? null : toLayout(textParts)

  const run = (send: SendContext): Run => {
    const scope: Record<string, unknown> = mailScope(source, send, links)
    let context: ReturnType<typeof htmlContext> | undefined
    const self: Run = { send, scope, context: () => (context ??= htmlContext(scope)), done: new Map() }
    scope["_link"] = new LinkDrop((index) => linkUrls[index]?.(self) ?? "")
    return self
  }
  const valuesOf = (current: Run) => holes.map((value) => value(current))
  const feedbackId = source.identity?.feedbackId
    ? `${source.campaign?.uuid ?? "none"}:${source.list?.uuid ?? "none"}:mailroom:${source.identity.feedbackId}`
    : null
  const envelopeOf = (current: Run): MailEnvelope => ({
    subject: subject(current.scope),
    envelopeFrom: envelopeSender(source.identity?.bounceAddress ?? null, current.send.sendUuid),
    headers: {
      ...(current.send.sendUuid === "" ? {} : { "X-Mailroom-Send": current.send.sendUuid }),
      ...(feedbackId === null ? {} : { "Feedback-ID": feedbackId }),
      ...(source.listHeaders
        ? {
          "List-Unsubscribe": `<${links.unsubscribe(current.send)}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          "List-ID": `<${source.list?.uuid ?? "mailroom"}.${links.host}>`,
          "Precedence": "bulk"
        }
        : {})
    }
  })
  return {
    layout: textLayout === null ? null : { html: htmlLayout, text: textLayout },
    personalise: (send) => {
      const current = run(send)
      return { values: valuesOf(current), envelope: envelopeOf(current) }
    },
    render: (send) => {
      const current = run(send)
      const filled = valuesOf(current)
      return {
        ...envelopeOf(current),
        html: fillLayout(htmlLayout, filled),
        ...(textLayout === null ? {} : { text: fillLayout(textLayout, filled) })
      }
    }
  }
}

/** Where `</body>` starts in the fixed text `text` of piece `index`, when it is the last one of the html; else -1. */
const lastBodyEnd = (pieces: ReadonlyArray<Template>, index: number, text: string): number => {
  const at = text.search(/<\/body>/i)
  if (at < 0) return -1
  for (let i = index + 1; i < pieces.length; i++) {
    if (/<\/body>/i.test(fixedText(pieces[i]!) ?? "")) return -1
  }
  return at
}
