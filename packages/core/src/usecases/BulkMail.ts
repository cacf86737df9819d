import { Effect } from "effect"
import type { LayoutMail, Mailer, MailError } from "../ports/Mailer.js"
import type { CompiledMail } from "../sending/CompiledMail.js"
import { compileContent, type ContentCompilation, type MailContent } from "../sending/compileContent.js"
import { trackableLinks } from "../sending/links.js"
import type { SendContext } from "../sending/mailScope.js"
import { translateLegacy } from "../sending/TemplateEngine.js"
import type { UrlSigner } from "./UrlSigner.js"

/** A campaign-shaped mail compiled once, with the transport's prepared sender for its layout when it has a bulk path. */
export interface BulkMail {
  readonly mail: CompiledMail
  readonly sendLayout: ((mail: LayoutMail) => Effect.Effect<void, MailError>) | null
}

/** The stored content a bulk mail is compiled from. */
export interface BulkMailContent extends MailContent {
  readonly emailHtml: string | null
  readonly html: string | null
  readonly trackClicks: boolean
}

/** The addresses of one mail of a bulk mail. */
export type BulkMailAddresses = Pick<LayoutMail, "from" | "to" | "replyTo">

/** What compiling a bulk mail uses: the mail's click-tracked links (registered on demand) and the services. */
export interface BulkMailCompilation extends Omit<ContentCompilation, "linkTokens" | "subjectPrefix"> {
  readonly ensureLinks: (urls: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<{ readonly id: number; readonly url: string }>>
  readonly signer: UrlSigner
  readonly mailer: Mailer["Type"]
}

/** The first line of why a mail is not a valid template. */
const problemOf = (error: unknown): string => (error instanceof Error ? error.message.split("\n")[0]! : String(error))

/**
 * Compiles a mail's sent html (its links registered for click tracking when it tracks clicks) and prepares the
 * transport's bulk path for its layout; fails with the reason when its html or subject is not a valid template.
 */
export const compileBulkMail = (content: BulkMailContent, options: BulkMailCompilation): Effect.Effect<BulkMail, string> =>
  Effect.gen(function*() {
    const html = translateLegacy(content.emailHtml ?? content.html ?? "")
    const tracked = content.trackClicks ? yield* options.ensureLinks(trackableLinks(html)) : []
    const linkTokens = yield* options.signer.linkTokens(tracked)
    const mail = yield* Effect.try({ try: () => compileContent(content, html, { ...options, linkTokens }), catch: problemOf })
    // the bulk path when the transport has one: it sees the layout once, then each mail only its values
    const prepare = options.mailer.prepare
    return { mail, sendLayout: mail.layout === null || prepare === undefined ? null : prepare(mail.layout) }
  })

/** Hands one send's mail to the transport: its values into the prepared layout, or the whole rendered mail. */
export const handOverBulkMail = (
  mailer: Mailer["Type"],
  { mail, sendLayout }: BulkMail,
  addresses: BulkMailAddresses,
  context: SendContext
): Effect.Effect<void, MailError> => {
  if (sendLayout !== null) {
    const { envelope, values } = mail.personalise(context)
    return sendLayout({ ...addresses, ...envelope, values })
  }
  const { text, ...rendered } = mail.render(context)
  return mailer.send({ ...addresses, ...rendered, ...(text === undefined ? {} : { text }) })
}
