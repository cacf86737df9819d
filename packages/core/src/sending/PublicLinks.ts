import { Effect } from "effect"
import { AppUrl } from "../usecases/AppUrl.js"

/** The paths of the public mail links; the http routes are declared on them. */
export const PublicPaths = {
  open: "/t/o",
  click: "/t/c",
  unsubscribe: "/u",
  webview: "/webview",
  confirm: "/confirm"
} as const

/** What a link of a send is for: each has its own signature, so one never works as another. */
export type LinkPurpose = "open" | "click" | "unsubscribe" | "webview"

/** The signatures of one send's links, by purpose. */
export type SendSignatures = Readonly<Record<LinkPurpose, string>>

/** The signatures of a mail without a send (a confirmation mail, a neutral web view): none. */
export const NO_SIGNATURES: SendSignatures = { open: "", click: "", unsubscribe: "", webview: "" }

/** A send as its links name it: its uuid and a signature per purpose. */
export interface SignedSend {
  readonly sendUuid: string
  readonly signatures: SendSignatures
}

/** Builds every public URL of a mail on `appUrl` (no trailing slash). */
export const publicLinks = (appUrl: string) => ({
  /** The open pixel of a send. */
  open: (send: SignedSend) => `${appUrl}${PublicPaths.open}/${send.sendUuid}/${send.signatures.open}`,
  /** The click redirect of a send's tracked link (`linkToken`: the link's signed id, UrlSigner.linkToken). */
  click: (send: SignedSend, linkToken: string) =>
    `${appUrl}${PublicPaths.click}/${send.sendUuid}/${linkToken}/${send.signatures.click}`,
  /** The unsubscribe page (GET) and one-click unsubscribe (POST) of a send. */
  unsubscribe: (send: SignedSend) => `${appUrl}${PublicPaths.unsubscribe}/${send.sendUuid}/${send.signatures.unsubscribe}`,
  /** The web version of a campaign: personal for a send's reader, neutral without one. */
  webview: (campaignUuid: string, send?: SignedSend) =>
    send === undefined
      ? `${appUrl}${PublicPaths.webview}/${campaignUuid}`
      : `${appUrl}${PublicPaths.webview}/${campaignUuid}/${send.sendUuid}/${send.signatures.webview}`,
  /** The double opt-in link of a subscriber (its page asks for a click before it confirms). */
  confirm: (subscriberUuid: string, signature: string) => `${appUrl}${PublicPaths.confirm}/${subscriberUuid}/${signature}`,
  /** The host name of the links, for header ids such as List-ID. */
  host: new URL(appUrl).hostname
})

/** The public URLs of this installation (`publicLinks` on APP_URL), for the mails and the pages that answer them. */
export class PublicLinks extends Effect.Service<PublicLinks>()("@mailroom/PublicLinks", {
  effect: Effect.map(AppUrl, publicLinks)
}) {}
