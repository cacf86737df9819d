import { escapeHtml } from "../domain/Html.js"
import { trackableLinks } from "./links.js"

const HREF = /href\s*=\s*"([^"]*)"/gi
const WEB = /^https?:\/\//i

/**
 * Tracking for a finished html (no template language left in it, e.g. a rendered transactional mail): every http(s)
 * link becomes `clickUrl(i)`, where `i` is its index in `trackableLinks(html)` (the same address has the same index),
 * and the open pixel goes before the last `</body>` (or at the end). Null arguments leave that part alone.
 */
export const trackHtml = (
  html: string,
  tracking: { readonly pixelUrl: string | null; readonly clickUrl: ((index: number) => string) | null }
): string => {
  let out = html
  if (tracking.clickUrl !== null) {
    const indexes = new Map(trackableLinks(html).map((url, index) => [url, index]))
    const clickUrl = tracking.clickUrl
    out = out.replace(HREF, (whole, value: string) => {
      const url = value.trim().replace(/&amp;/g, "&")
      const index = WEB.test(url) ? indexes.get(url) : undefined
      return index === undefined ? whole : `href="${escapeHtml(clickUrl(index))}"`
    })
  }
  if (tracking.pixelUrl === null) return out
  const pixel = `<img src="${escapeHtml(tracking.pixelUrl)}" width="1" height="1" alt="" style="display:none">`
  const end = out.search(/<\/body>(?![\s\S]*<\/body>)/i)
  return end < 0 ? out + pixel : out.slice(0, end) + pixel + out.slice(end)
}
