/** The links of a mail: which are tracked, how they are rewritten, and utm tags. */

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

const HREF = /href\s*=\s*"([^"]*)"/gi
const WEB = /^https?:\/\//i

/** A link as written in the html, `&amp;` decoded (what clicks are grouped by). */
const asWritten = (value: string): string => value.trim().replace(/&amp;/g, "&")

/** Whether a link holds Liquid (a personalised link: filled per subscriber). */
export const isPersonal = (url: string): boolean => url.includes("{{") || url.includes("{%")

/**
 * The http(s) links of an html body (already in Liquid: legacy replacers translated) that can be click-tracked, as
 * written: personalised ones too (`https://example.org/p?e={{ subscriber.email }}`). Links whose address is a variable
 * (`{{ unsubscribeUrl }}`, `mailto:`, anchors) are not tracked.
 */
export const trackableLinks = (html: string): Array<string> => {
  const links = new Set<string>()
  for (const match of html.matchAll(HREF)) {
    const url = asWritten(match[1]!)
    if (WEB.test(url)) links.add(url)
  }
  return [...links]
}

/**
 * Replaces the address of every http(s) link with `{{ _link.lN }}` (rendered per mail: a click URL when tracked, the
 * link with its placeholders filled and utm tags added otherwise) and returns the links in order, as written. Links
 * that are neither tracked, personal nor utm-tagged are left alone.
 */
export const rewriteLinks = (
  html: string,
  keep: (url: string) => boolean
): { readonly html: string; readonly links: ReadonlyArray<string> } => {
  const links: Array<string> = []
  const rewritten = mapLinks(html, (url) => (keep(url) ? null : `{{ _link.l${links.push(url) - 1} }}`))
  return { html: rewritten, links }
}

/**
 * Replaces the address of every http(s) link with what `replace` gives for the link as written (written into the
 * attribute as it is); links it gives null for, and links that are not http(s), are left alone.
 */
export const mapLinks = (html: string, replace: (url: string) => string | null): string =>
  html.replace(HREF, (whole, value: string) => {
    const url = asWritten(value)
    if (!WEB.test(url)) return whole
    const address = replace(url)
    return address === null ? whole : `href="${address}"`
  })

/** The open pixel of a mail, pointing at `url` (an attribute-safe URL). */
export const openPixel = (url: string): string => `<img src="${url}" width="1" height="1" alt="" style="display:none">`

/**
 * Where a click on a link goes: the link as written, its placeholders filled by `fill` when it is personal, utm tags
 * added when asked, as an ASCII URL (non-ASCII parts percent-encoded); null when the result is not an http(s) URL.
 */
export const clickTarget = (
  written: string,
  options: { readonly fill: (template: string) => string; readonly utmCampaign: string | null }
): string | null => {
  try {
    const filled = isPersonal(written) ? options.fill(written).trim() : written
    if (!WEB.test(filled)) return null
    const url = new URL(filled).href
    return options.utmCampaign === null ? url : withUtmTags(url, options.utmCampaign)
  } catch {
    return null
  }
}
