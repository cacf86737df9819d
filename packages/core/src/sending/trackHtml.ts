import { escapeHtml } from "../domain/Html.js"
import { mapLinks, openPixel } from "./links.js"

/**
 * Tracking for a finished html (no template language left in it, e.g. a rendered transactional mail): every http(s)
 * link for which `clickUrl` gives an address is rewritten to it, and the open pixel goes before the last `</body>`
 * (or at the end). Null arguments leave that part alone.
 */
export const trackHtml = (
  html: string,
  tracking: { readonly pixelUrl: string | null; readonly clickUrl: ((url: string) => string | null) | null }
): string => {
  const clickUrl = tracking.clickUrl
  const out = clickUrl === null ? html : mapLinks(html, (url) => {
    const address = clickUrl(url)
    return address === null ? null : escapeHtml(address)
  })
  if (tracking.pixelUrl === null) return out
  const pixel = openPixel(escapeHtml(tracking.pixelUrl))
  const end = out.search(/<\/body>(?![\s\S]*<\/body>)/i)
  return end < 0 ? out + pixel : out.slice(0, end) + pixel + out.slice(end)
}
