/**
 * The plain-text fallback of an HTML body. Campaign mails compute it once per campaign (CampaignMail.ts), other mails
 * once each, so it is a single left-to-right scan instead of a chain of whole-string regular expressions: ~60–100 µs
 * instead of ~500 µs for a 35 KB newsletter (bench/smtp/run.ts). Its output follows the rules of the former chain
 * (test/htmlToTextReference.ts; the tests compare both on random documents):
 * - comments and `<head>`, `<style>`, `<script>`, `<title>` elements (with their content) are dropped;
 * - whitespace in the source collapses to one space, lines are trimmed, at most one blank line in a row;
 * - `<a href="http(s)://…">label</a>` becomes `label (url)` (just `label` when it is the URL, or not http(s));
 * - `<br>` is a line break, `<li>` starts a `- ` line, `</p>`, `</h1-6>`, `</blockquote>`, `</table>`, `</ul>`,
 *   `</ol>` end a paragraph (blank line), `</div>`, `</tr>`, `</section>`, `</article>`, `</header>`, `</footer>` a line;
 * - every other tag is removed; `&amp; &lt; &gt; &quot; &apos; &nbsp;` and numeric references are decoded.
 * A `<` that does not open a tag (not followed by a letter, `/`, `!` or `?`) is kept as text.
 */
export const htmlToText = (html: string): string => {
  const out = new TextOut()
  const length = html.length
  const special = SPECIAL_HTML
  let run = 0
  special.lastIndex = 0
  for (let match = special.exec(html); match !== null; match = special.exec(html)) {
    const k = match.index
    const c = html.charCodeAt(k)
    if (c === LT) {
      const next = k + 1 < length ? html.charCodeAt(k + 1) : 0
      if (!(isLetter(next) || next === SLASH || next === BANG || next === QUESTION)) continue
      const gt = html.indexOf(">", k + 1)
      if (gt < 0) {
        // no tag can close any more: the rest is text
        out.verbatim(html, run, k)
        out.text(html.slice(k))
        return out.result()
      }
      out.verbatim(html, run, k)
      run = special.lastIndex = handleTag(html, k, gt, out)
    } else if (c === AMP) {
      const amp = html.startsWith("amp;", k + 1) // the common case, without a regex
      const end = amp ? k + 5 : entityEnd(html, k)
      if (end < 0) continue
      out.verbatim(html, run, k)
      out.decoded(amp ? "&" : decodeEntity(html.slice(k, end)))
      run = special.lastIndex = end
    } else {
      out.verbatim(html, run, k)
      out.space()
      run = special.lastIndex = k + 1
    }
  }
  out.verbatim(html, run, length)
  return out.result()
}

/**
 * What the scan stops at: `<`, `&`, whitespace other than a plain space, and a plain space that is followed by
 * whitespace, `&`, `<` or the end. Everything between two stops is written as it is (words and single spaces).
 */
const SPECIAL_HTML = /[<&\t-\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| [\s&<]| $/g
const SPECIAL_TEXT = /[&\t-\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| [\s&]| $/g

const LT = 0x3c
const AMP = 0x26
const SLASH = 0x2f
const BANG = 0x21
const QUESTION = 0x3f

const isLetter = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)
const isWordChar = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f

/** The characters JavaScript's `\s` matches. */
const isSpace = (c: number): boolean =>
  c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c > 0x7f &&
    (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f ||
      c === 0x205f || c === 0x3000 || c === 0xfeff))

/** Only spaces (and tabs, vertical tabs, form feeds) up to `end`, an optional `/` when `slash`. */
const onlySpaceUntil = (s: string, from: number, end: number, slash: boolean): boolean => {
  for (let k = from; k < end; k++) {
    const c = s.charCodeAt(k)
    if (c === SLASH && slash && k === end - 1) return true
    if (!isSpace(c)) return false
  }
  return true
}

const DROPPED = new Set(["head", "style", "script", "title"])
const PARAGRAPH_END = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "table", "ul", "ol"])
const LINE_END = new Set(["div", "tr", "section", "article", "header", "footer"])

const closingTag = (name: string): RegExp => new RegExp(`</${name}\\s*>`, "gi")
const CLOSERS = new Map(["a", ...DROPPED].map((name) => [name, closingTag(name)]))
const ANCHOR = /<a\b[^>]*?\bhref\s*=\s*(["'])([\s\S]*?)\1[^>]*>/iy
const HTTP = /^https?:/i

/** Index just after the closing tag `</name>` searched from `from`, with the index where it starts; -1 when missing. */
const findClose = (s: string, name: string, from: number): readonly [number, number] => {
  const re = CLOSERS.get(name)!
  re.lastIndex = from
  const match = re.exec(s)
  return match === null ? [-1, -1] : [match.index, match.index + match[0].length]
}

/** Handles the tag `html[lt..gt]` (and for comments, dropped elements and links what follows it); the next index. */
const handleTag = (html: string, lt: number, gt: number, out: TextOut): number => {
  let k = lt + 1
  const first = html.charCodeAt(k)
  if (first === BANG) {
    if (html.startsWith("!--", k)) {
      const end = html.indexOf("-->", k + 3)
      if (end >= 0) return end + 3
    }
    return gt + 1
  }
  const closing = first === SLASH
  if (closing) k++
  const nameStart = k
  while (k < gt && isWordChar(html.charCodeAt(k))) k++
  if (k === nameStart) return gt + 1
  const name = html.slice(nameStart, k).toLowerCase()
  if (closing) {
    if (onlySpaceUntil(html, k, gt, false)) {
      if (PARAGRAPH_END.has(name)) out.newlines(2)
      else if (LINE_END.has(name)) out.newlines(1)
    }
    return gt + 1
  }
  switch (name) {
    case "br":
      if (onlySpaceUntil(html, k, gt, true)) out.newlines(1)
      return gt + 1
    case "li":
      out.newlines(1)
      out.text("- ")
      return gt + 1
    case "a":
      return anchor(html, lt, gt, out)
    default:
      if (DROPPED.has(name)) {
        const [, end] = findClose(html, name, gt + 1)
        if (end >= 0) return end
      }
      return gt + 1
  }
}

/** `<a href="…">label</a>`: `label (url)` for http(s) targets other than the label itself. */
const anchor = (html: string, lt: number, gt: number, out: TextOut): number => {
  ANCHOR.lastIndex = lt
  const open = ANCHOR.exec(html)
  if (open === null) return gt + 1
  const innerStart = lt + open[0].length
  const [innerEnd, end] = findClose(html, "a", innerStart)
  if (end < 0) return gt + 1
  const href = collapse(open[2]!)
  const label = labelOf(html.slice(innerStart, innerEnd))
  const text = HTTP.test(href) && label !== href ? `${label} (${href})` : label
  out.text(text)
  return end
}

const collapse = (s: string): string => s.replace(/\s+/g, " ")

/** The text of a link: without comments, dropped elements and tags, whitespace collapsed, trimmed (entities kept). */
const labelOf = (inner: string): string =>
  inner.indexOf("<") < 0 ? collapse(inner).trim() : collapse(
    inner
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<(head|style|script|title)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, "")
  ).replace(/<[^>]*>/g, "").trim()

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: "\u00a0" }
const ENTITY = /&(?:#\d+|#x[0-9a-f]+|[a-z]+);/iy

/** The index after the character reference that starts at `at` (`&name;`, `&#123;`, `&#x1F;`), or -1. */
const entityEnd = (s: string, at: number): number => {
  ENTITY.lastIndex = at
  return ENTITY.test(s) ? ENTITY.lastIndex : -1
}

/** `&name;`, `&#123;` or `&#x1F;` decoded; unknown names and invalid code points stay as they are. */
const decodeEntity = (entity: string): string => {
  const body = entity.slice(1, -1)
  if (body[0] === "#") {
    const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity
  }
  return ENTITIES[body.toLowerCase()] ?? entity
}

/**
 * The text being written: runs of whitespace become one space inside a line and vanish at its ends, line breaks are
 * counted and written (at most two in a row) only before the next visible character, so nothing leads or trails.
 */
class TextOut {
  private out = ""
  private pendingBreaks = 0
  private pendingSpace = false
  private lineHasText = false
  private empty = true

  newlines(count: number): void {
    this.pendingBreaks += count
    this.pendingSpace = false
    this.lineHasText = false
  }

  space(): void {
    if (this.lineHasText) this.pendingSpace = true
  }

  /** Writes `s[from..to)`: words separated by single spaces (a leading space is not written at a line start). */
  verbatim(s: string, from: number, to: number): void {
    if (to <= from) return
    if (s.charCodeAt(from) === 0x20) {
      this.space()
      if (++from === to) return
    }
    if (this.pendingBreaks > 0) {
      if (!this.empty) this.out += this.pendingBreaks >= 2 ? "\n\n" : "\n"
      this.pendingBreaks = 0
    } else if (this.pendingSpace) {
      this.out += " "
    }
    this.pendingSpace = false
    this.lineHasText = true
    this.empty = false
    this.out += from === 0 && to === s.length ? s : s.slice(from, to)
  }

  /** Writes text (no tags): whitespace collapses, character references are decoded. */
  text(s: string): void {
    const special = SPECIAL_TEXT
    let run = 0
    special.lastIndex = 0
    for (let match = special.exec(s); match !== null; match = special.exec(s)) {
      const k = match.index
      if (s.charCodeAt(k) === AMP) {
        const end = entityEnd(s, k)
        if (end < 0) continue
        this.verbatim(s, run, k)
        this.decoded(decodeEntity(s.slice(k, end)))
        run = special.lastIndex = end
      } else {
        this.verbatim(s, run, k)
        this.space()
        run = special.lastIndex = k + 1
      }
    }
    this.verbatim(s, run, s.length)
  }

  /** A decoded character reference: a line feed breaks the line, spaces, tabs and no-break spaces collapse. */
  decoded(value: string): void {
    if (value === "\n") this.newlines(1)
    else if (value === " " || value === "\t" || value === "\u00a0") this.space()
    else this.verbatim(value, 0, value.length)
  }

  result(): string {
    return this.out
  }
}
