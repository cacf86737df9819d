import { parseSmtpUrl } from "./internal/SmtpSettings.js"

/** What is wrong with an SMTP URL, in a few words, or undefined when `SmtpMailer` can use it. */
export const smtpUrlProblem = (text: string): string | undefined => {
  if (!/^smtps?:\/\//i.test(text)) return "must start with smtp:// or smtps:// (e.g. smtp://user:pass@mail.example.com:587)"
  try {
    parseSmtpUrl(text)
    return undefined
  } catch (error) {
    return error instanceof TypeError ? "is not a valid URL (a password with @, : or / must be percent-encoded)" : (error as Error).message
  }
}

/** The host and port an SMTP URL points at (the URL must have passed `smtpUrlProblem`). */
export const smtpAddress = (text: string): { readonly host: string; readonly port: number } => {
  const { host, port } = parseSmtpUrl(text)
  return { host, port }
}
