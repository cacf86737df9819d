import { templatePlaceholder } from "./Template.js"

/** Fills a template's `[[[field]]]` slots with the campaign's field values; `markdown` fields are converted first. */
export const fillTemplate = (
  html: string,
  fields: Readonly<Record<string, string>>,
  markdown: (text: string) => string
): string =>
  html.replace(templatePlaceholder, (_, name: string, type: string | undefined) => {
    const value = fields[name] ?? ""
    return type?.toLowerCase() === "markdown" ? markdown(value) : value
  })

/** Splits a comma-separated list of test recipients: trimmed, empties dropped. */
export const splitRecipients = (text: string): Array<string> =>
  text.split(",").map((item) => item.trim()).filter((item) => item.length > 0)
