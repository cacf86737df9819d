/** A body compiled once for many recipients: fixed text, and holes (numbers) filled from each mail's `values`. */
export type BodyLayout = ReadonlyArray<string | number>

/** What the mails of one campaign share: the HTML body and its plain-text alternative as layouts. */
export interface MailLayout {
  readonly html: BodyLayout
  readonly text: BodyLayout
}

/** Fills a layout's holes with `values` (what a mail of the layout reads as). */
export const fillLayout = (layout: BodyLayout, values: ReadonlyArray<string>): string => {
  let out = ""
  for (const part of layout) out += typeof part === "string" ? part : values[part] ?? ""
  return out
}
