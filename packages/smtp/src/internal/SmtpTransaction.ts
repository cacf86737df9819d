/**
 * One mail transaction (RFC 5321 §3.3) over an open SMTP connection. To one recipient, MAIL FROM + RCPT TO + DATA go
 * in one write when the server supports PIPELINING (RFC 2920), then the bytes dot-stuffed with a native search and
 * the final dot; with CHUNKING (RFC 3030) MAIL FROM + RCPT TO + BDAT and the bytes go in one write instead. To several
 * recipients the message goes to all or to none: the bytes follow only once every RCPT TO was accepted.
 */
import { dotStuff, refused, type Reply, SmtpError } from "./SmtpWire.js"

/** What a transaction needs of its connection. */
export interface SmtpSession {
  /** The EHLO keywords the server offered (upper-case), with their parameters. */
  readonly features: ReadonlyMap<string, string>
  /** The server takes a message in one BDAT chunk (CHUNKING with PIPELINING). */
  readonly chunking: boolean
  /** The next reply; `afterData` marks failures as possibly delivered (the message bytes were written). */
  read(afterData?: boolean): Promise<Reply>
  /** Writes a command line and resolves with its reply. */
  command(line: string): Promise<Reply>
  /** Writes the pieces together (one TCP write where they fit). */
  write(...pieces: ReadonlyArray<string | Buffer>): void
  /** Says RSET, or QUIT when that is not answered with 250. */
  reset(): Promise<void>
  /** Says QUIT and closes the connection. */
  quit(): void
}

const END = Buffer.from(".\r\n")
const CRLF_END = Buffer.from("\r\n.\r\n")
const ASCII = /^[\x20-\x7e]*$/

/** A reply accepting a recipient: 250, or 251 (will forward). */
const accepted = (reply: Reply): boolean => reply.code >= 250 && reply.code <= 251

/**
 * Sends one message to its recipients; rejects with an SmtpError when any step is refused or the connection fails.
 * `dotStuffed` says the bytes have their line-initial dots doubled already.
 */
export const sendMail = async (
  session: SmtpSession,
  from: string,
  to: ReadonlyArray<string>,
  raw: Buffer,
  dotStuffed: boolean
): Promise<void> => {
  if (to.length === 0) throw new SmtpError("The message has no recipients", null, true)
  const unicode = !ASCII.test(from) || to.some((address) => !ASCII.test(address))
  if (unicode && !session.features.has("SMTPUTF8")) {
    throw new SmtpError("The server does not accept non-ASCII addresses (no SMTPUTF8)", null, true)
  }
  const limit = Number(session.features.get("SIZE") ?? 0)
  if (limit > 0 && raw.length > limit) {
    throw new SmtpError(`The message (${raw.length} bytes) exceeds the server's limit of ${limit} bytes`, 552, true)
  }
  const params = (session.features.has("SIZE") ? ` SIZE=${raw.length}` : "") + (unicode ? " SMTPUTF8" : "")
  const mailFrom = `MAIL FROM:<${from}>${params}`
  if (to.length > 1) return sendToMany(session, mailFrom, to, raw, dotStuffed)
  const rcptTo = `RCPT TO:<${to[0]}>`
  if (session.chunking && !dotStuffed) return sendChunked(session, mailFrom, rcptTo, raw)
  let mail: Reply, rcpt: Reply | undefined, data: Reply | undefined
  if (session.features.has("PIPELINING")) {
    const replies = [session.read(), session.read(), session.read()] as const
    session.write(`${mailFrom}\r\n${rcptTo}\r\nDATA\r\n`)
    ;[mail, rcpt, data] = await Promise.all(replies)
  } else {
    mail = await session.command(mailFrom)
    if (mail.code === 250) rcpt = await session.command(rcptTo)
    if (rcpt !== undefined && accepted(rcpt)) data = await session.command("DATA")
  }
  const refusal = mail.code !== 250 ? ["MAIL FROM", mail] as const
    : rcpt === undefined || !accepted(rcpt) ? ["RCPT TO", rcpt ?? mail] as const
    : data === undefined || data.code !== 354 ? ["DATA", data ?? rcpt] as const
    : null
  if (refusal !== null) {
    if (data?.code === 354) await session.command(".")
    await session.reset()
    throw refused(refusal[0], refusal[1])
  }
  return writeData(session, raw, dotStuffed)
}

/**
 * MAIL FROM, RCPT TO, `BDAT <size> LAST` and the bytes in one write; the server answers the three in order. The
 * bytes are out before any answer, so a lost connection may have delivered the message whichever reply it cut off.
 */
const sendChunked = async (session: SmtpSession, mailFrom: string, rcptTo: string, raw: Buffer): Promise<void> => {
  const replies = [session.read(true), session.read(true), session.read(true)] as const
  session.write(`${mailFrom}\r\n${rcptTo}\r\nBDAT ${raw.length} LAST\r\n`, raw)
  const [mail, rcpt, bdat] = await Promise.all(replies)
  const refusal = mail.code !== 250 ? ["MAIL FROM", mail] as const
    : !accepted(rcpt) ? ["RCPT TO", rcpt] as const
    : bdat.code !== 250 ? ["message", bdat] as const
    : null
  if (refusal === null) return
  // after a refused chunk the server may not have read all of it: the connection is not trusted with another mail
  if (refusal[0] === "message") session.quit()
  else await session.reset()
  throw refused(refusal[0], refusal[1], refusal[0] === "message")
}

/**
 * A message for several recipients, all or nothing: MAIL FROM and every RCPT TO (pipelined when the server allows),
 * and only once every recipient was accepted, DATA (or BDAT) and the bytes. A refused recipient resets the
 * transaction before any byte of the message went out and fails the message with its reply, naming the address:
 * permanent when some recipient got a 5xx, else temporary. (Pipelining DATA too would leave a server that answered
 * 354 after a refused RCPT TO waiting for a message it would deliver to the others.)
 */
const sendToMany = async (
  session: SmtpSession,
  mailFrom: string,
  to: ReadonlyArray<string>,
  raw: Buffer,
  dotStuffed: boolean
): Promise<void> => {
  let mail: Reply
  let rcpts: Array<Reply> = []
  if (session.features.has("PIPELINING")) {
    const replies = [session.read(), ...to.map(() => session.read())]
    session.write(`${mailFrom}\r\n${to.map((address) => `RCPT TO:<${address}>\r\n`).join("")}`)
    ;[mail, ...rcpts] = (await Promise.all(replies)) as [Reply, ...Array<Reply>]
  } else {
    mail = await session.command(mailFrom)
    for (const address of mail.code === 250 ? to : []) {
      const reply = await session.command(`RCPT TO:<${address}>`)
      rcpts.push(reply)
      if (!accepted(reply)) break
    }
  }
  if (mail.code !== 250) {
    await session.reset()
    throw refused("MAIL FROM", mail)
  }
  const permanent = rcpts.findIndex((reply) => reply.code >= 500)
  const at = permanent >= 0 ? permanent : rcpts.findIndex((reply) => !accepted(reply))
  if (at >= 0) {
    await session.reset()
    throw refused(`RCPT TO:<${to[at]}>`, rcpts[at]!)
  }
  if (session.chunking && !dotStuffed) {
    const done = session.read(true)
    session.write(`BDAT ${raw.length} LAST\r\n`, raw)
    const reply = await done
    if (reply.code === 250) return
    session.quit()
    throw refused("message", reply, true)
  }
  const data = await session.command("DATA")
  if (data.code !== 354) {
    await session.reset()
    throw refused("DATA", data)
  }
  return writeData(session, raw, dotStuffed)
}

/** After the server's 354: the bytes (dot-stuffed unless they are already) and the final dot; resolves on its 250. */
const writeData = async (session: SmtpSession, raw: Buffer, dotStuffed: boolean): Promise<void> => {
  const body = dotStuffed ? raw : dotStuff(raw)
  const done = session.read(true)
  session.write(body, body[body.length - 1] === 0x0a ? END : CRLF_END)
  const reply = await done
  if (reply.code !== 250) throw refused("message", reply, true)
}
