import { Effect, Option } from "effect"
import type { SendId, SubscriberId } from "../../domain/Ids.js"
import { Send } from "../../domain/Send.js"
import type { TransactionalMailId } from "../../transactional/TransactionalIds.js"
import { type LoggedTransactionalMail, TransactionalMail } from "../../transactional/TransactionalMail.js"
import { TransactionalMailRepository } from "../../transactional/TransactionalMailRepository.js"
import { containsIgnoringCase, listPage } from "./listPage.js"
import { pendingSend } from "./pendingSend.js"
import type { MemoryState } from "./MemoryState.js"

/** TransactionalMailRepository over the in-memory state (sends live in the shared sends table). */
export const makeMemoryTransactionalMailRepository = (state: MemoryState) => {
  const rows = () => state.tables.transactionalMails
  const sendsOf = (mailId: number) =>
    [...state.tables.sends.values()].map((r) => r.send).filter((s) => s.transactionalMailId === mailId).sort((a, b) => a.id - b.id)
  const logged = (mail: TransactionalMail): LoggedTransactionalMail => {
    const sends = sendsOf(mail.id)
    const latest = sends.at(-1)
    return {
      mail,
      sendUuid: latest?.uuid ?? null,
      status: latest === undefined ? (mail.fake ? "sent" : "pending") : latest.sentAt !== null ? "sent" : latest.failedAt !== null ? "failed" : "pending",
      failureReason: latest?.failureReason ?? null,
      transportMessageId: latest?.transportMessageId ?? null,
      opens: sends.reduce((sum, s) => sum + s.openCount, 0),
      clicks: sends.reduce((sum, s) => sum + s.clickCount, 0)
    }
  }
  const addresses = (mail: TransactionalMail) => [...mail.to, ...mail.cc, ...mail.bcc, mail.from].map((a) => `${a.name ?? ""} ${a.email}`).join(" ")
  return TransactionalMailRepository.of({
    insert: (mail) =>
      Effect.sync(() => {
        const row = new TransactionalMail({ ...mail, id: state.nextId("transactionalMails") as TransactionalMailId })
        rows().set(row.id, row)
        return row
      }),
    addSend: ({ at, email, mailId, uuid }) =>
      Effect.sync(() => {
        const id = state.nextId("sends") as SendId
        const subscriber = [...state.tables.subscribers.values()].filter((s) => s.email === email).sort((a, b) => a.id - b.id)[0]
        const subscriberId = subscriber === undefined ? null : subscriber.id as SubscriberId
        state.tables.sends.set(id, pendingSend({ id, uuid, campaignId: null, transactionalMailId: mailId, subscriberId, email }, at))
        return { id, uuid }
      }),
    findById: (id) => Effect.sync(() => Option.fromNullable(rows().get(id))),
    findByIds: (ids) => Effect.sync(() => ids.flatMap((id) => rows().get(id) ?? [])),
    findByUuid: (uuid) =>
      Effect.sync(() => Option.map(Option.fromNullable([...rows().values()].find((m) => m.uuid === uuid && m.stored)), logged)),
    list: (query) =>
      Effect.sync(() =>
        listPage([...rows().values()].filter((m) => m.stored).map(logged), query, {
          id: (l) => l.mail.id,
          sorts: { created_at: (l) => l.mail.createdAt, subject: (l) => l.mail.subject },
          filters: {
            search: (l, value) => containsIgnoringCase(l.mail.subject, value) || containsIgnoringCase(addresses(l.mail), value),
            transport_message_id: (l, value) =>
              sendsOf(l.mail.id).some((s) => s.transportMessageId !== null && s.transportMessageId.replace(/^<|>$/g, "") === value.trim().replace(/^<|>$/g, "")),
            mail_name: (l, value) => l.mail.mailName !== null && l.mail.mailName.toLowerCase() === value.trim().toLowerCase()
          }
        })
      ),
    claim: ({ leaseUntil, limit, now, owner }) =>
      Effect.sync(() => {
        const due = [...state.tables.sends.values()]
          .filter((r) =>
            r.send.transactionalMailId !== null && r.send.sentAt === null && r.send.failedAt === null &&
            (r.lockedUntil === null || r.lockedUntil < now) && (r.retryAt === null || r.retryAt <= now)
          )
          .sort((a, b) => a.send.id - b.send.id)
          .slice(0, limit)
        return due.map((r) => {
          state.tables.sends.set(r.send.id, { ...r, lockedUntil: leaseUntil, leaseOwner: owner })
          return {
            id: r.send.id,
            uuid: r.send.uuid,
            mailId: r.send.transactionalMailId!,
            attempts: r.send.attempts,
            deferredSince: r.deferredSince
          }
        })
      }),
    forgetDelivered: (ids) =>
      Effect.sync(() => {
        for (const id of ids) {
          const mail = rows().get(id)
          const sends = sendsOf(id)
          if (mail === undefined || mail.stored || sends.some((s) => s.sentAt === null && s.failedAt === null)) continue
          rows().delete(id)
          for (const send of sends) state.tables.sends.delete(send.id)
        }
      }),
    countClick: (sendId, at) =>
      Effect.sync(() => {
        const row = state.tables.sends.get(sendId)
        if (row === undefined) return { first: false }
        const s = row.send
        state.tables.sends.set(sendId, {
          ...row,
          send: new Send({ ...s, clickCount: s.clickCount + 1, firstClickedAt: s.firstClickedAt ?? at, lastClickedAt: at, updatedAt: at })
        })
        return { first: s.clickCount === 0 }
      })
  })
}
