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

/** A send as its links name it: its uuid and signature. */
export interface SignedSend {
  readonly sendUuid: string
  readonly signature: string
}

/** Builds every public URL of a mail on `appUrl` (no trailing slash). */
export const publicLinks = (appUrl: string) => ({
  /** The open pixel of a send. */
  open: (send: SignedSend) => `${appUrl}${PublicPaths.open}/${send.sendUuid}/${send.signature}`,
  /** The click redirect of a send's tracked link. */
  click: (send: SignedSend, linkId: number) => `${appUrl}${PublicPaths.click}/${send.sendUuid}/${linkId}/${send.signature}`,
  /** The unsubscribe page (GET) and one-click unsubscribe (POST) of a send. */
  unsubscribe: (send: SignedSend) => `${appUrl}${PublicPaths.unsubscribe}/${send.sendUuid}/${send.signature}`,
  /** The web version of a campaign: personal for a send's reader, neutral without one. */
  webview: (campaignUuid: string, send?: SignedSend) =>
    send === undefined
      ? `${appUrl}${PublicPaths.webview}/${campaignUuid}`
      : `${appUrl}${PublicPaths.webview}/${campaignUuid}/${send.sendUuid}/${send.signature}`,
  /** The double opt-in link of a subscriber (its page asks for a click before it confirms). */
  confirm: (subscriberUuid: string, signature: string) => `${appUrl}${PublicPaths.confirm}/${subscriberUuid}/${signature}`,
  /** The host name of the links, for header ids such as List-ID. */
  host: new URL(appUrl).hostname
})

/** The public URLs of this installation (`publicLinks` on APP_URL), for the mails and the pages that answer them. */
export class PublicLinks extends Effect.Service<PublicLinks>()("@mailroom/PublicLinks", {
  effect: Effect.map(AppUrl, publicLinks)
}) {}
