/**
 * An SMTP server for fault tests: it takes mail like a real MTA (EHLO with PIPELINING, SIZE, SMTPUTF8, 8BITMIME and,
 * when asked, CHUNKING; DATA and BDAT) and can be told to misbehave: answer every reply late, refuse a stage with any
 * reply (4xx/5xx), drop the connection at any stage (after the final "." or BDAT chunk, too: the message arrived but
 * its sender never hears so), or refuse every connection for a while (an outage). It counts what arrived.
 */
import { createServer, type Server, type Socket } from "node:net"
import { SocketReader } from "./SocketReader.js"

/** Where in a mail transaction a fault can strike. */
export type FaultStage = "connect" | "mail" | "rcpt" | "data" | "message"

/** What the server does instead of its normal reply: another reply (e.g. "451 4.3.0 busy"), or drop the connection. */
export type Fault = { readonly reply: string } | { readonly drop: true }

/** A stage of one mail transaction, for a fault plan to decide on. */
export interface FaultContext {
  readonly stage: FaultStage
  /** The recipient (from RCPT TO on), else null. */
  readonly recipient: string | null
  /** How many transactions reached this stage before this one (0-based, per stage). */
  readonly index: number
}

/** A mail the server took in whole. */
export interface ReceivedMail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly raw: string
  /** The server dropped the connection instead of answering 250: the sender cannot know the mail arrived. */
  readonly unanswered: boolean
  /** Whether it came by BDAT (else DATA). */
  readonly chunked: boolean
  /** When it arrived (ms since the epoch). */
  readonly at: number
}

/** Settings of a FaultySmtpServer; all can be changed while it runs. */
export interface FaultySmtpSettings {
  /** Milliseconds before every reply (a slow MTA). */
  replyDelayMs: number
  /** Offer CHUNKING (BDAT). */
  chunking: boolean
  /** Refuse every new connection and close the open ones (an outage). */
  down: boolean
  /** A fault for this stage, or nothing for the normal reply. */
  fault: (context: FaultContext) => Fault | undefined
}

/** A running FaultySmtpServer. */
export interface FaultySmtpServer {
  readonly url: string
  readonly port: number
  readonly settings: FaultySmtpSettings
  /** Mails taken in whole, in arrival order (live). */
  readonly received: ReadonlyArray<ReceivedMail>
  /** Stages refused with a reply, and connections dropped, by stage. */
  readonly refused: Readonly<Record<FaultStage, number>>
  readonly dropped: Readonly<Record<FaultStage, number>>
  /** Connections opened so far. */
  readonly connections: () => number
  /** How many mails each recipient got (lower-cased). */
  readonly counts: () => Map<string, number>
  /** Resolves once at least `count` mails arrived; rejects after `timeoutMs`. */
  readonly waitFor: (count: number, timeoutMs: number) => Promise<void>
  readonly close: () => Promise<void>
}

const zero = (): Record<FaultStage, number> => ({ connect: 0, mail: 0, rcpt: 0, data: 0, message: 0 })
const address = (argument: string) => /<([^>]*)>/.exec(argument)?.[1] ?? ""

/** Starts a FaultySmtpServer on 127.0.0.1 (a free port unless one is given). */
export const startFaultySmtpServer = async (
  initial: Partial<FaultySmtpSettings> = {},
  port = 0
): Promise<FaultySmtpServer> => {
  const settings: FaultySmtpSettings = { replyDelayMs: 0, chunking: false, down: false, fault: () => undefined, ...initial }
  const received: Array<ReceivedMail> = []
  const refused = zero()
  const dropped = zero()
  const reached = zero()
  const sockets = new Set<Socket>()
  const waiters = new Set<() => void>()
  let connections = 0

  const session = async (socket: Socket) => {
    const reader = new SocketReader(socket)
    const send = async (text: string) => {
      if (settings.replyDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, settings.replyDelayMs))
      if (!socket.destroyed) socket.write(`${text}\r\n`)
    }
    /** The fault for a stage, counted; true when the session must end (dropped). */
    const faulted = async (stage: FaultStage, recipient: string | null, normal: string): Promise<"dropped" | "refused" | "ok"> => {
      const fault = settings.fault({ stage, recipient, index: reached[stage]++ })
      if (fault === undefined) {
        await send(normal)
        return "ok"
      }
      if ("drop" in fault) {
        dropped[stage]++
        socket.destroy()
        return "dropped"
      }
      refused[stage]++
      await send(fault.reply)
      return "refused"
    }
    const deliver = (mail: ReceivedMail) => {
      received.push(mail)
      for (const wake of waiters) wake()
    }

    if ((await faulted("connect", null, "220 faulty.test ESMTP ready")) !== "ok") return socket.destroy()
    let from: string | null = null
    let rcpts: Array<string> = []
    let chunks: Array<Buffer> = []
    const reset = () => {
      from = null
      rcpts = []
      chunks = []
    }
    /** The end of a message: its final reply (or a fault), and the mail recorded when the server took it. */
    const finish = async (raw: string, chunked: boolean) => {
      const mail = { from: from ?? "", to: rcpts, raw, chunked, at: Date.now() }
      const outcome = await faulted("message", rcpts[0] ?? null, "250 2.0.0 Ok: queued")
      if (outcome !== "refused") deliver({ ...mail, unanswered: outcome === "dropped" })
      reset()
      return outcome
    }
    for (;;) {
      const line = await reader.line()
      if (line === null || socket.destroyed) return
      const [verb = "", ...rest] = line.split(" ")
      const argument = rest.join(" ")
      switch (verb.toUpperCase()) {
        case "EHLO":
          await send(["250-faulty.test", "250-PIPELINING", "250-SIZE 52428800", "250-8BITMIME", "250-SMTPUTF8",
            ...(settings.chunking ? ["250-CHUNKING"] : []), "250 ENHANCEDSTATUSCODES"].join("\r\n"))
          break
        case "HELO":
          await send("250 faulty.test")
          break
        case "MAIL":
          reset()
          if ((await faulted("mail", null, "250 2.1.0 Ok")) === "dropped") return
          from = address(argument)
          break
        case "RCPT": {
          const to = address(argument)
          if (from === null) {
            await send("503 5.5.1 MAIL first")
            break
          }
          const outcome = await faulted("rcpt", to, "250 2.1.5 Ok")
          if (outcome === "dropped") return
          if (outcome === "ok") rcpts.push(to)
          break
        }
        case "DATA": {
          if (rcpts.length === 0) {
            await send("554 5.5.1 No valid recipients")
            break
          }
          const outcome = await faulted("data", rcpts[0]!, "354 End data with <CR><LF>.<CR><LF>")
          if (outcome === "dropped") return
          if (outcome === "refused") break
          const body = await reader.body()
          if (body === null || (await finish(body, false)) === "dropped") return
          break
        }
        case "BDAT": {
          const [size = "0", last = ""] = argument.split(" ")
          const bytes = await reader.bytes(Number(size))
          if (bytes === null) return
          if (rcpts.length === 0) {
            await send("503 5.5.1 No valid recipients")
            reset()
            break
          }
          chunks.push(bytes)
          if (last.toUpperCase() !== "LAST") {
            await send(`250 2.0.0 ${bytes.length} octets received`)
            break
          }
          if ((await finish(Buffer.concat(chunks).toString("utf8"), true)) === "dropped") return
          break
        }
        case "RSET":
          reset()
          await send("250 2.0.0 Ok")
          break
        case "NOOP":
          await send("250 2.0.0 Ok")
          break
        case "QUIT":
          await send("221 2.0.0 Bye")
          socket.end()
          return
        default:
          await send("502 5.5.2 Command not recognized")
      }
    }
  }

  const server: Server = createServer((socket) => {
    connections++
    if (settings.down) return socket.destroy()
    socket.setNoDelay(true)
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
    socket.on("error", () => undefined)
    session(socket).catch(() => socket.destroy())
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => resolve())
  })
  const bound = server.address()
  if (bound === null || typeof bound === "string") throw new Error("FaultySmtpServer: no TCP address")

  return {
    url: `smtp://127.0.0.1:${bound.port}`,
    port: bound.port,
    settings: new Proxy(settings, {
      set: (target, key, value) => {
        Reflect.set(target, key, value)
        if (key === "down" && value === true) for (const socket of sockets) socket.destroy()
        return true
      }
    }),
    received,
    refused,
    dropped,
    connections: () => connections,
    counts: () => {
      const counts = new Map<string, number>()
      for (const mail of received) for (const to of mail.to) counts.set(to.toLowerCase(), (counts.get(to.toLowerCase()) ?? 0) + 1)
      return counts
    },
    waitFor: (count, timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (received.length < count) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve()
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`FaultySmtpServer.waitFor: ${received.length} of ${count} mails after ${timeoutMs} ms`))
        }, timeoutMs)
        waiters.add(check)
        check()
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}
