import type { publicLinks, SendSignatures } from "./PublicLinks.js"

/** What a rendered mail may mention of its recipient. */
export interface Recipient {
  readonly uuid: string
  readonly email: string
  readonly firstName: string | null
  readonly lastName: string | null
  readonly extraAttributes: Readonly<Record<string, unknown>>
}

/** Per-send values: the send's uuid and link signatures (empty for mails without a send), the recipient, and more. */
export interface SendContext {
  readonly sendUuid: string
  readonly signatures: SendSignatures
  readonly recipient: Recipient
  /** Variables of this one mail (e.g. `confirmUrl`), beside the usual ones. */
  readonly variables?: Readonly<Record<string, unknown>>
}

/** What a mail says of its campaign and list, when it has them. */
export interface MailScopeSource {
  readonly campaign: { readonly uuid: string; readonly name: string } | null
  readonly list: { readonly uuid: string; readonly name: string } | null
}

/**
 * The subscriber as templates see it: `uuid`, `email`, `first_name`, `last_name`, `extra_attributes` and each extra
 * attribute by its own name too (`{{ subscriber.company }}` as `{{ subscriber.extra_attributes.company }}`).
 */
export const subscriberVariables = (recipient: Recipient): Record<string, unknown> => ({
  ...recipient.extraAttributes,
  extra_attributes: recipient.extraAttributes,
  uuid: recipient.uuid,
  email: recipient.email,
  first_name: recipient.firstName ?? "",
  last_name: recipient.lastName ?? ""
})

/**
 * Every variable of one mail: `subscriber`, `campaign` and `list` (`name`, `uuid`), `unsubscribeUrl` (also
 * `preferencesUrl`), `webviewUrl`, `sendUuid`, and the send's own variables. Built in this one place for every kind
 * of mail.
 */
export const mailScope = (
  source: MailScopeSource,
  send: SendContext,
  links: ReturnType<typeof publicLinks>
): Record<string, unknown> => {
  const unsubscribeUrl = links.unsubscribe(send)
  return {
    ...send.variables,
    subscriber: subscriberVariables(send.recipient),
    campaign: source.campaign === null ? {} : { name: source.campaign.name, uuid: source.campaign.uuid },
    list: source.list === null ? {} : { name: source.list.name, uuid: source.list.uuid },
    unsubscribeUrl,
    preferencesUrl: unsubscribeUrl,
    webviewUrl: source.campaign === null ? "" : links.webview(source.campaign.uuid, send),
    sendUuid: send.sendUuid
  }
}
