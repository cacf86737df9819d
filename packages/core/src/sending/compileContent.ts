import { compileMail, type CompiledMail } from "./CompiledMail.js"
import type { PublicLinks } from "./PublicLinks.js"

/** What the compiled form of a campaign-shaped mail (a campaign, an automation mail) takes from it. */
export interface MailContent {
  readonly uuid: string
  readonly name: string
  readonly subject: string | null
  readonly trackOpens: boolean
  readonly utmTags: boolean
}

/** How a campaign-shaped mail is compiled: for which list, with which tracked links and whose identity. */
export interface ContentCompilation {
  readonly list: { readonly uuid: string; readonly name: string } | null
  readonly linkTokens: ReadonlyMap<string, string>
  readonly identity: { readonly bounceAddress: string | null; readonly feedbackId: string | null }
  readonly publicLinks: PublicLinks
  /** Put before the subject (`[Test] `). */
  readonly subjectPrefix?: string
}

/** Compiles a campaign-shaped mail's `html` with list headers; throws when its html or subject is not a valid template. */
export const compileContent = (content: MailContent, html: string, options: ContentCompilation): CompiledMail =>
  compileMail({
    html,
    subject: `${options.subjectPrefix ?? ""}${content.subject ?? content.name}`,
    campaign: { uuid: content.uuid, name: content.name },
    list: options.list,
    linkTokens: options.linkTokens,
    trackOpens: content.trackOpens,
    utmTags: content.utmTags,
    listHeaders: true,
    identity: options.identity
  }, options.publicLinks)
