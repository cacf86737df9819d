import { Effect, Option } from "effect"
import type { SendUuid } from "../domain/Ids.js"
import type { Send } from "../domain/Send.js"
import type { SendRepository } from "../ports/SendRepository.js"
import type { LinkPurpose } from "../sending/PublicLinks.js"
import type { UrlSigner } from "./UrlSigner.js"
import { parseUuid } from "./lookup.js"

/**
 * Checks a public link of a send for `purpose`: `signed` when it carries the send's signature for that purpose or,
 * for a mail sent before purposes, its one old signature (`legacyOnly`: only that); `send` is none for a test mail
 * (its uuid has no send) or a send since deleted.
 */
export const signedSend = (signer: UrlSigner, sends: SendRepository["Type"]) =>
(purpose: LinkPurpose, sendUuid: string, signature: string, legacyOnly = false) =>
  Effect.gen(function*() {
    const uuid = parseUuid(sendUuid)
    if (Option.isNone(uuid)) return { signed: false, send: Option.none<Send>() }
    const send = Option.map(yield* sends.findByUuid(uuid.value as SendUuid), (listed) => listed.send)
    const sentAt = Option.isSome(send) ? send.value.sentAt : null
    const signed = (!legacyOnly && (yield* signer.verifySend(purpose, uuid.value, signature))) ||
      (yield* signer.verifyLegacy(uuid.value, signature, sentAt))
    return { signed, send }
  })
