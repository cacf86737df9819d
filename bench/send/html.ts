/** About 30 KB of HTML with 10 links and personal placeholders. */
export const html = () => {
  const links = Array.from({ length: 10 }, (_, i) => `<p><a href="https://example.com/articles/${i + 1}?ref=news">Article ${i + 1}</a></p>`)
  const filler = Array.from({ length: 110 }, (_, i) =>
    `<p style="font-family:Georgia,serif;color:#333">Paragraph ${i}: Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>`)
  return `<!doctype html><html><body><h1>Hello {{ subscriber.first_name }}</h1>${links.join("")}${filler.join("")}` +
    `<p>Sent to {{ subscriber.email }}. <a href="::unsubscribeUrl::">Unsubscribe</a></p></body></html>`
}

