import { describe, expect, it } from "@effect/vitest"
import { compileMail, htmlToText, type MailSource, publicLinks, type SendContext, templateProblem } from "@mailroom/core"

const links = publicLinks("https://mail.example.com")
const source = (html: string, overrides: Partial<MailSource> = {}): MailSource => ({
  html,
  subject: "Hello {{ subscriber.first_name }}",
  campaign: { uuid: "c0ffee00-0000-4000-8000-000000000001", name: "Autumn & Co" },
  list: { uuid: "11111111-0000-4000-8000-000000000001", name: "Readers <all>" },
  linkTokens: new Map([
    ["https://example.com/a?x=1&y=2", "7.link7"],
    ["https://example.com/b", "8.link8"],
    ["https://example.org/p?e={{ subscriber.email }}", "9.link9"]
  ]),
  trackOpens: true,
  utmTags: false,
  listHeaders: true,
  ...overrides
})

const send = (firstName: string | null, extra: Record<string, unknown> = {}): SendContext => ({
  sendUuid: "5e4d0000-0000-4000-8000-000000000009",
  signatures: { open: "sig_open", click: "sig_click", unsubscribe: "sig_unsub", webview: "sig_view" },
  recipient: { uuid: "a0000000-0000-4000-8000-000000000003", email: "zoe+x@example.org", firstName, lastName: "Lima", extraAttributes: extra }
})
const click = (link: number) => `https://mail.example.com/t/c/5e4d0000-0000-4000-8000-000000000009/${link}.link${link}/sig_click`

const documents = [
  `<html><head><title>{{ subscriber.first_name }}</title></head><body><h1>Hi {{ subscriber.first_name }},</h1>` +
  `<p>News from {{ list.name }} &amp; {{ campaign.name }}.</p><a href="https://example.com/a?x=1&amp;y=2">Read {{subscriber.last_name}}</a>` +
  `<ul><li>one</li><li><a href="https://example.com/b">https://example.com/b</a></li></ul>` +
  `<p>Plan: ::subscriber.extra_attributes.plan:: (::subscriber.unknown::)</p>` +
  `<p><a href="::unsubscribeUrl::">::unsubscribeUrl::</a> <a href="::webviewUrl::">view</a> ::sendUuid::</p></body></html>`,
  `plain {{ subscriber.email }} text without tags <br> and a <a href="https://example.com/b">link</a>`,
  `<p>Dear {% if subscriber.first_name != "" %}{{ subscriber.first_name | upcase }}{% else %}reader{% endif %}, ` +
  `{{ subscriber.plan | default: "free" }} plan</p>`,
  `<p>No placeholders at all.</p>`
]

describe("compileMail", () => {
  it("compiles the text alternative once, giving what htmlToText gives for each personalised html", () => {
    // an empty value between two spaces leaves both in the compiled text, where htmlToText would fold them
    const spaces = (text: string | undefined) => text?.replace(/ {2,}/g, " ")
    for (const html of documents) {
      const mail = compileMail(source(html), links)
      for (const recipient of [send("Zoë & <Ana>", { plan: "gold" }), send(null), send("Bo", { plan: { tier: 2 } })]) {
        const rendered = mail.render(recipient)
        expect(spaces(rendered.text), html).toBe(spaces(htmlToText(rendered.html)))
      }
    }
  })

  it("escapes values in the html and keeps them raw in the text and subject; tracked links, legacy replacers", () => {
    const rendered = compileMail(source(documents[0]!), links).render(send("Zoë & <Ana>", { plan: "gold" }))
    expect(rendered.subject).toBe("Hello Zoë & <Ana>")
    expect(rendered.html).toContain("Hi Zoë &amp; &lt;Ana&gt;,")
    expect(rendered.text).toContain("Hi Zoë & <Ana>,")
    expect(rendered.text).toContain("News from Readers <all> & Autumn & Co.")
    expect(rendered.html).toContain(`href="${click(7)}"`)
    expect(rendered.text).toContain(`Read Lima (${click(7)})`)
    expect(rendered.text).toContain("Plan: gold ()")
    // the unsubscribe and web view links are the send's own, not click-tracked
    expect(rendered.html).toContain(`<a href="https://mail.example.com/u/5e4d0000-0000-4000-8000-000000000009/sig_unsub">`)
    expect(rendered.html).toContain(
      `href="https://mail.example.com/webview/c0ffee00-0000-4000-8000-000000000001/5e4d0000-0000-4000-8000-000000000009/sig_view"`
    )
    expect(rendered.headers).toEqual({
      "X-Mailroom-Send": "5e4d0000-0000-4000-8000-000000000009",
      "List-Unsubscribe": "<https://mail.example.com/u/5e4d0000-0000-4000-8000-000000000009/sig_unsub>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      "List-ID": "<11111111-0000-4000-8000-000000000001.mail.example.com>",
      "Precedence": "bulk"
    })
    expect(rendered.html).toMatch(/<img src="https:\/\/mail\.example\.com\/t\/o\/5e4d0000-0000-4000-8000-000000000009\/sig_open"[^>]*><\/body>/)
  })

  it("runs Liquid: conditions, loops, filters, assignments across the mail, extra attributes by name", () => {
    const html = `{% assign name = subscriber.first_name | default: "friend" %}<p>Hi {{ name }}</p>` +
      `<ul>{% for tag in subscriber.interests %}<li>{{ forloop.index }}. {{ tag | capitalize }}</li>{% endfor %}</ul>` +
      `<p>{% if subscriber.score > 3 %}top{% else %}low{% endif %} {{ subscriber.company }} {{ "2026-03-01" | date: "%b %Y" }}</p>`
    const mail = compileMail(source(html, { trackOpens: false }), links)
    expect(mail.render(send("Ada", { interests: ["maths", "engines"], score: 5, company: "Acme" })).html)
      .toBe("<p>Hi Ada</p><ul><li>1. Maths</li><li>2. Engines</li></ul><p>top Acme Mar 2026</p>")
    expect(mail.render(send(null, { score: 1 })).html).toBe("<p>Hi friend</p><ul></ul><p>low  Mar 2026</p>")
  })

  it("fills placeholders inside links: tracked ones through the click URL, others in place, with utm tags when asked", () => {
    const html = `<a href="https://example.org/p?e={{ subscriber.email }}">mine</a> <a href="https://example.org/q?n=::subscriber.first_name::">q</a>`
    const tracked = compileMail(source(html), links).render(send("Zoë"))
    expect(tracked.html).toContain(`href="${click(9)}"`)
    expect(tracked.html).toContain(`href="https://example.org/q?n=Zoë"`)
    const untracked = compileMail(source(html, { linkTokens: new Map(), utmTags: true }), links).render(send("Zoë"))
    expect(untracked.html).toContain(`href="https://example.org/p?e=zoe+x%40example.org&amp;utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=autumn-co"`)
    expect(untracked.html).toContain(`href="https://example.org/q?n=Zo%C3%AB&amp;utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=autumn-co"`)
    const plain = compileMail(source(html, { linkTokens: new Map() }), links).render(send("Zoë"))
    expect(plain.html).toContain(`href="https://example.org/p?e=zoe+x@example.org"`)
  })

  it("without open tracking there is no pixel; without list headers only the send's id", () => {
    const rendered = compileMail(source("<p>x</p>", { trackOpens: false, listHeaders: false }), links).render(send("A"))
    expect(rendered.html).toBe("<p>x</p>")
    expect(rendered.headers).toEqual({ "X-Mailroom-Send": "5e4d0000-0000-4000-8000-000000000009" })
  })

  it("refuses templates that do not parse or would read files, with the reason", () => {
    expect(templateProblem("<p>{% if subscriber.first_name %}open</p>")).toMatch(/^The template does not parse: tag \{% if subscriber.first_name %\} not closed/)
    expect(templateProblem("{{ subscriber.email | nosuchfilter }}")).toMatch(/undefined filter: nosuchfilter/)
    expect(templateProblem("{% include 'secrets.txt' %}")).toMatch(/include %\} is not available in mails/)
    expect(templateProblem("<p>Hi {{ subscriber.first_name }} ::unsubscribeUrl::</p>")).toBeNull()
    expect(() => compileMail(source("{{ oops"), links)).toThrow()
  })

  it("leaves the text to the mailer when the html holds the marker characters itself", () => {
    const rendered = compileMail(source("<p>odd \uE000 {{ subscriber.first_name }}</p>"), links).render(send("Ana"))
    expect(rendered.text).toBeUndefined()
    expect(rendered.html).toContain("odd \uE000 Ana")
  })
})
