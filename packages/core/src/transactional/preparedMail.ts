import { Either } from "effect"
import type { MailerNames } from "../usecases/MailerNames.js"
import { type NamedAddress, parseAddress, parseAddressList } from "./MailAddressList.js"
import type { SendTransactionalMailInput } from "./SendTransactionalMailInput.js"
import type { StoredAttachment } from "./TransactionalMail.js"
import type { TransactionalTemplate } from "./TransactionalTemplate.js"

/** A send request checked field by field: everything a mail needs but its rendered content. */
export interface PreparedMail {
  readonly from: NamedAddress
  readonly to: ReadonlyArray<NamedAddress>
  readonly cc: ReadonlyArray<NamedAddress>
  readonly bcc: ReadonlyArray<NamedAddress>
  readonly replyTo: ReadonlyArray<NamedAddress>
  readonly attachments: ReadonlyArray<StoredAttachment>
  readonly mailer: string | null
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
const CONTENT_TYPE = /^[A-Za-z0-9][\w!#$&^.+-]{0,126}\/[A-Za-z0-9][\w!#$&^.+-]{0,126}$/
const CONTENT_ID = /^[\x21-\x3b\x3d\x3f-\x7e]{1,250}$/

/** Adds each address not already among `seen` (compared ignoring case). */
const distinct = (seen: Set<string>, addresses: ReadonlyArray<NamedAddress>): Array<NamedAddress> =>
  addresses.filter((address) => {
    const key = address.email.toLowerCase()
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })

/**
 * Checks the addresses, attachments and mailer of a send (`template` adds its default recipients): the prepared
 * mail, or the errors by field (`to`, `attachments.0.content`, …), all at once.
 */
export const prepareMail = (
  input: SendTransactionalMailInput,
  template: TransactionalTemplate | null,
  mailers: MailerNames["Type"]
): Either.Either<PreparedMail, Record<string, Array<string>>> => {
  const errors: Record<string, Array<string>> = {}
  const fail = (field: string, message: string) => void (errors[field] ??= []).push(message)
  const from = parseAddress(input.from)
  if (input.from.trim() === "") fail("from", "The from field is required.")
  else if (from === null) fail("from", "The from field must be a valid email address.")
  const list = (field: string, text: string | null | undefined, defaults: ReadonlyArray<string> | null) => {
    const parsed = parseAddressList(text ?? "")
    if (parsed.invalid.length > 0) {
      fail(field, `The ${field.replace("_", " ")} field must contain valid email addresses (${parsed.invalid.join(", ")} is not).`)
    }
    return [...parsed.addresses, ...(defaults ?? []).flatMap((item) => parseAddress(item) ?? [])]
  }
  const seen = new Set<string>()
  const to = distinct(seen, list("to", input.to, template?.to ?? null))
  if (to.length === 0 && errors["to"] === undefined) fail("to", "The to field is required.")
  const cc = distinct(seen, list("cc", input.cc, template?.cc ?? null))
  const bcc = distinct(seen, list("bcc", input.bcc, template?.bcc ?? null))
  const replyTo = list("reply_to", input.replyTo, null)
  const mailer = input.mailer === undefined || input.mailer === null || input.mailer.trim() === "" ? null : input.mailer.trim()
  if (mailer !== null && !mailers.includes(mailer)) {
    fail("mailer", `The selected mailer is invalid: configured mailers are ${mailers.join(", ")}.`)
  }
  const attachments = (input.attachments ?? []).map((attachment, index): StoredAttachment => {
    const content = attachment.content.replace(/\s+/g, "")
    if (!BASE64.test(content)) fail(`attachments.${index}.content`, "The content must be base64.")
    if (attachment.name.trim() === "" || /[\u0000-\u001f\u007f]/.test(attachment.name)) {
      fail(`attachments.${index}.name`, "The name must be a file name without control characters.")
    }
    const contentType = attachment.contentType?.trim() || "application/octet-stream"
    if (!CONTENT_TYPE.test(contentType)) fail(`attachments.${index}.content_type`, "The content type must look like type/subtype.")
    else if (/^(multipart|message)\//i.test(contentType)) {
      fail(`attachments.${index}.content_type`, "The content type cannot be multipart or message (attach an .eml file as application/octet-stream).")
    }
    const contentId = attachment.contentId?.trim().replace(/^<(.*)>$/, "$1") || null
    if (contentId !== null && !CONTENT_ID.test(contentId)) {
      fail(`attachments.${index}.content_id`, "The content id must be printable ASCII without spaces or angle brackets.")
    }
    return { name: attachment.name.trim(), content, contentType, contentId }
  })
  if (Object.keys(errors).length > 0) return Either.left(errors)
  return Either.right({ from: from!, to, cc, bcc, replyTo, attachments, mailer })
}
