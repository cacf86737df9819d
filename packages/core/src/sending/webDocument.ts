import { escapeHtml } from "../domain/Html.js"

/**
 * A mail's html as a whole web page: a doctype, and a title (the subject) when it has none; a fragment gets the
 * html, head and body around it.
 */
export const webDocument = (html: string, title: string): string => {
  const head = `<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title>`
  const doctype = /^\s*<!doctype/i.test(html) ? "" : "<!doctype html>\n"
  if (!/<html[\s>]/i.test(html)) return `${doctype}<html><head>${head}</head><body>${html}</body></html>`
  if (/<title[\s>]/i.test(html)) return `${doctype}${html}`
  if (/<head[\s>]/i.test(html)) return `${doctype}${html.replace(/<head(\s[^>]*)?>/i, (open) => `${open}${head}`)}`
  return `${doctype}${html.replace(/<html(\s[^>]*)?>/i, (open) => `${open}<head>${head}</head>`)}`
}
