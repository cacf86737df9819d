import { describe, expect, it } from "@effect/vitest"
import { compileCampaign, htmlToText, type SendContext } from "@mailroom/core"

const context = {
  appUrl: "https://mail.example.com",
  campaignUuid: "c0ffee00-0000-4000-8000-000000000001",
  campaignName: "Autumn & Co",
  listUuid: "11111111-0000-4000-8000-000000000001",
  listName: "Readers <all>",
  linkIds: new Map([["https://example.com/a?x=1&y=2", 7], ["https://example.com/b", 8]]),
  trackOpens: true,
  utmTags: false
}

const send = (firstName: string | null, extra: Record<string, unknown> = {}): SendContext => ({
  sendUuid: "5e4d0000-0000-4000-8000-000000000009",
  signature: "sig_-0",
  recipient: { uuid: "a0000000-0000-4000-8000-000000000003", email: "zoe@example.org", firstName, lastName: "Lima", extraAttributes: extra }
})

const documents = [
  `<html><head><title>{{ subscriber.first_name }}</title></head><body><h1>Hi {{ subscriber.first_name }},</h1>` +
  `<p>News from {{ list.name }} &amp; {{ campaign.name }}.</p><a href="https://example.com/a?x=1&amp;y=2">Read {{subscriber.last_name}}</a>` +
  `<ul><li>one</li><li><a href="https://example.com/b">https://example.com/b</a></li></ul>` +
  `<p>Plan: ::subscriber.extra_attributes.plan:: (::subscriber.unknown::)</p>` +
  `<p><a href="::unsubscribeUrl::">::unsubscribeUrl::</a> <a href="::webviewUrl::">view</a> ::sendUuid::</p></body></html>`,
  `plain {{ subscriber.email }} text without tags <br> and a <a href="https://example.com/b">link</a>`,
  `<p>No placeholders at all.</p>`
]

describe("compileCampaign", () => {
  it("compiles the text fallback once, giving what htmlToText gives for each personalised html", () => {
    for (const html of documents) {
      const mail = compileCampaign(html, "Hello {{ subscriber.first_name }}", context)
      for (const recipient of [send("Zoë & <Ana>", { plan: "gold" }), send(null), send("Bo", { plan: { tier: 2 } })]) {
        const rendered = mail.render(recipient)
        expect(rendered.text, html).toBe(htmlToText(rendered.html))
      }
    }
  })

  it("personalises the text with raw values and signed tracked links", () => {
    const rendered = compileCampaign(documents[0]!, "Hello {{ subscriber.first_name }}", context).render(send("Zoë & <Ana>", { plan: "gold" }))
    expect(rendered.subject).toBe("Hello Zoë & <Ana>")
    expect(rendered.html).toContain("Hi Zoë &amp; &lt;Ana&gt;,")
    expect(rendered.text).toContain("Hi Zoë & <Ana>,")
    expect(rendered.text).toContain("News from Readers <all> & Autumn & Co.")
    const click = `https://mail.example.com/t/c/5e4d0000-0000-4000-8000-000000000009/7/sig_-0`
    expect(rendered.html).toContain(`href="${click}"`)
    expect(rendered.text).toContain(`Read Lima (${click})`)
    expect(rendered.text).toContain("Plan: gold (::subscriber.unknown::)")
    expect(rendered.text).toContain("https://mail.example.com/u/5e4d0000-0000-4000-8000-000000000009/sig_-0 view")
    expect(rendered.headers["List-Unsubscribe"]).toBe("<https://mail.example.com/u/5e4d0000-0000-4000-8000-000000000009/sig_-0>")
  })

  it("leaves the text to the mailer when the html holds the marker characters itself", () => {
    const rendered = compileCampaign("<p>odd \uE000 {{ subscriber.first_name }}</p>", "s", context).render(send("Ana"))
    expect(rendered.text).toBeUndefined()
    expect(rendered.html).toContain("odd \uE000 Ana")
  })
})
