/**
 * About 30 KB of HTML: five Liquid outputs, one `{% if %}` and ten personalised tracked links (each carries the
 * subscriber's uuid), as issue 12 measures it.
 */
export const html = () => {
  const links = Array.from({ length: 10 }, (_, i) =>
    `<p><a href="https://example.com/articles/${i + 1}?ref=news&amp;u={{ subscriber.uuid }}">Article ${i + 1}</a></p>`)
  const filler = Array.from({ length: 110 }, (_, i) =>
    `<p style="font-family:Georgia,serif;color:#333">Paragraph ${i}: Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>`)
  return `<!doctype html><html><body><h1>Hello {{ subscriber.first_name | default: "reader" }}</h1>` +
    `{% if subscriber.last_name != "" %}<p>Dear {{ subscriber.first_name }} {{ subscriber.last_name }},</p>{% endif %}` +
    `<p>This is {{ campaign.name | upcase }} from {{ list.name }}.</p>${links.join("")}${filler.join("")}` +
    `<p>Sent to {{ subscriber.email }}. <a href="::unsubscribeUrl::">Unsubscribe</a></p></body></html>`
}
