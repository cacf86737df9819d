import { describe, expect, it } from "@effect/vitest"
import { htmlToText } from "@mailroom/core"
import { htmlToTextReference } from "./htmlToTextReference.js"

/** Seeded random HTML of the kind templates produce: nested blocks, links, entities, comments, odd whitespace. */
const randomHtml = (seed: number) => {
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff
  const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(random() * items.length)]!
  const words = ["hello", "Ana", "José", "ünï", "123", "a", "x.y", "-", "—", "😀", "https://x.test/u"]
  const spaces = [" ", "  ", "\n", "\t", " \n ", "\r\n", "\u00a0", "\u2003", ""]
  const entities = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&nbsp;", "&#8212;", "&#x41;", "&copy;", "&AMP;", "&#10;", "&#32;", "& ", "&#0;", "&#9;"]
  const blocks = ["p", "div", "h1", "h3", "blockquote", "table", "tr", "td", "ul", "ol", "section", "span", "b", "header", "footer", "pre"]
  const odd = ["x>y", "<br / >", "<a href=x>bare</a>", "<a>", "</a>", "<!---->", "<a href=\"a>b\">q</a>", "<p title='<b>'>t</p>"]
  const node = (depth: number): string => {
    let html = ""
    const n = 1 + Math.floor(random() * 6)
    for (let i = 0; i < n; i++) {
      const r = random()
      if (r < 0.3) html += pick(words)
      else if (r < 0.45) html += pick(spaces)
      else if (r < 0.52) html += pick(entities)
      else if (r < 0.56) html += pick(["<br>", "<br/>", "<BR />", "<br class=\"x\">", "<li>", "<LI class=a>", "<hr>", "<img src=\"x.png\">"])
      else if (r < 0.6) html += pick(["<!-- c -->", "<!--[if mso]><table><![endif]-->", "<style>p{x:1}</style>", "<script>var a='<p>'</script>", "<title>T</title>"])
      else if (r < 0.7 && depth < 4) {
        const q = pick(["\"", "'"])
        const href = pick(["https://x.test/a?b=1&amp;c=2", "http://y.test/", "mailto:a@b.c", "#top", "https://x.test/u", " https://x.test/s "])
        html += `<a${pick(["", " class=\"btn\"", " data-href=\"https://z.test\""])} href=${q}${href}${q}>${node(depth + 1)}</a${pick(["", " "])}>`
      } else if (depth < 4) {
        const tag = random() < 0.2 ? pick(blocks).toUpperCase() : pick(blocks)
        html += `<${tag}${pick(["", " style=\"color:red\""])}>${node(depth + 1)}</${tag}${pick(["", " ", "\n"])}>`
      }
      if (random() < 0.05) html += pick(odd)
    }
    return html
  }
  return node(0)
}

describe("htmlToText (single scan)", () => {
  it("gives the same text as the former regex chain on 5,000 random documents", () => {
    for (let seed = 1; seed <= 5000; seed++) {
      const html = randomHtml(seed)
      expect(htmlToText(html), html).toBe(htmlToTextReference(html))
    }
  })

  it("keeps a '<' that does not open a tag (the regex chain cut text up to the next '>')", () => {
    expect(htmlToText("<p>1 < 2 and 3 <4</p><p>x > y</p>")).toBe("1 < 2 and 3 <4\n\nx > y")
  })

  it("handles documents without tags, unclosed tags and unclosed comments", () => {
    expect(htmlToText("plain   text &amp; more")).toBe("plain text & more")
    expect(htmlToText("a <b")).toBe("a <b")
    expect(htmlToText("<p>x</p>a <b  c &amp;&nbsp; d ")).toBe(htmlToTextReference("<p>x</p>a <b  c &amp;&nbsp; d "))
    expect(htmlToText("<p>x</p>a <b  c &amp;&nbsp; d ")).toBe("x\n\na <b c & d")
    expect(htmlToText("a <!-- open")).toBe("a <!-- open")
    expect(htmlToText("<style>p{}")).toBe("p{}")
    expect(htmlToText("")).toBe("")
  })
})
