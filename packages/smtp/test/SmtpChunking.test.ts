import { createServer, type Socket } from "node:net"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { SmtpError } from "../src/internal/SmtpConnection.js"
import { SmtpPool } from "../src/internal/SmtpPool.js"
import { parseSmtpUrl } from "../src/internal/SmtpSettings.js"

interface Delivered {
  readonly to: string
  readonly raw: string
  readonly via: "BDAT" | "DATA"
}

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/**
 * A pipelining server with CHUNKING (RFC 3030): BDAT chunks are read by their size, DATA up to CRLF.CRLF (then
 * un-stuffed). Recipients starting with "nobody" are refused with 550; messages containing "REJECT" with 554.
 * With `holdReplies`, MAIL and RCPT are answered only with the chunk's reply, and a message containing "DROP" is
 * taken but the connection closes before any reply (a server that committed the mail, then died).
 */
const chunkingServer = async (options: { readonly holdReplies?: boolean } = {}) => {
  const delivered: Array<Delivered> = []
  const commands: Array<string> = []
  const sockets = new Set<Socket>()
  const tcp = createServer((socket) => {
    sockets.add(socket)
    socket.on("error", () => undefined)
    let pending = Buffer.alloc(0)
    let to = ""
    let refused = false
    let chunk = -1
    let last = false
    let body: Array<Buffer> = []
    let inData = false
    socket.write("220 chunky ESMTP\r\n")
    socket.on("data", (data: Buffer) => {
      pending = Buffer.concat([pending, data])
      for (;;) {
        if (chunk >= 0) {
          if (pending.length < chunk) return
          body.push(pending.subarray(0, chunk))
          pending = pending.subarray(chunk)
          chunk = -1
          if (!last) socket.write("250 chunk ok\r\n")
          else finish("BDAT", Buffer.concat(body).toString("latin1"))
          continue
        }
        if (inData) {
          const end = pending.indexOf("\r\n.\r\n")
          if (end < 0) return
          const raw = pending.subarray(0, end + 2).toString("latin1").replace(/(^|\r\n)\.\./g, "$1.")
          pending = pending.subarray(end + 5)
          inData = false
          finish("DATA", raw)
          continue
        }
        const newline = pending.indexOf("\r\n")
        if (newline < 0) return
        const line = pending.subarray(0, newline).toString("latin1")
        pending = pending.subarray(newline + 2)
        const verb = line.split(/[ :]/)[0]!.toUpperCase()
        commands.push(verb)
        if (verb === "EHLO") socket.write("250-chunky\r\n250-PIPELINING\r\n250-CHUNKING\r\n250 SIZE 1000000\r\n")
        else if (verb === "RCPT") {
          to = /<([^>]*)>/.exec(line)?.[1] ?? ""
          refused = to.startsWith("nobody")
          if (!options.holdReplies) socket.write(refused ? "550 5.1.1 no such user\r\n" : "250 ok\r\n")
        } else if (verb === "MAIL" && options.holdReplies) {
          // answered with the chunk
        } else if (verb === "BDAT") {
          const [, size, flag] = line.split(" ")
          chunk = Number(size)
          last = flag === "LAST"
        } else if (verb === "DATA") {
          inData = true
          socket.write("354 go ahead\r\n")
        } else if (verb === "QUIT") socket.end("221 bye\r\n")
        else socket.write("250 ok\r\n")
      }
    })
    const finish = (via: Delivered["via"], raw: string) => {
      body = []
      if (options.holdReplies) {
        delivered.push({ to, raw, via })
        if (raw.includes("DROP")) return socket.destroy()
        return socket.write("250 ok\r\n250 ok\r\n250 queued\r\n")
      }
      if (refused) socket.write("503 5.5.1 no valid recipients\r\n")
      else if (raw.includes("REJECT")) socket.write("554 5.6.0 content rejected\r\n")
      else {
        delivered.push({ to, raw, via })
        socket.write("250 queued\r\n")
      }
    }
  })
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve))
  closers.push(() =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy()
      tcp.close(() => resolve())
    }))
  const pool = new SmtpPool(parseSmtpUrl(`smtp://127.0.0.1:${(tcp.address() as { port: number }).port}`), 1)
  closers.unshift(async () => pool.close())
  return { commands, delivered, pool }
}

const message = (to: string, body: string) => Buffer.from(`To: ${to}\r\nSubject: Hi\r\n\r\n${body}\r\n`)

const failure = (promise: Promise<unknown>): Promise<SmtpError> =>
  promise.then(
    () => Promise.reject(new Error("expected the send to fail")),
    (error: unknown) => (error instanceof SmtpError ? error : Promise.reject(error))
  )

describe("SmtpPool over a CHUNKING server", () => {
  it("sends a message as one BDAT LAST chunk, byte for byte, with no dot-stuffing and no DATA", async () => {
    const { commands, delivered, pool } = await chunkingServer()
    const body = ".dot first\r\n.\r\nend"
    await pool.send("a@example.com", ["ana@example.org"], message("ana@example.org", body))
    expect(pool.chunking).toBe(true)
    expect(delivered).toEqual([{ to: "ana@example.org", raw: message("ana@example.org", body).toString(), via: "BDAT" }])
    expect(commands).toEqual(["EHLO", "MAIL", "RCPT", "BDAT"])
  })

  it("a message already dot-stuffed goes by DATA and arrives as it was written", async () => {
    const { delivered, pool } = await chunkingServer()
    await pool.send("a@example.com", ["bo@example.org"], Buffer.from("To: bo@example.org\r\n\r\n..hidden dot\r\n"), true)
    expect(delivered).toEqual([{ to: "bo@example.org", raw: "To: bo@example.org\r\n\r\n.hidden dot\r\n", via: "DATA" }])
  })

  it("a refused recipient fails that message only, and a refused message is permanent; the next goes through", async () => {
    const { delivered, pool } = await chunkingServer()
    const noUser = await failure(pool.send("a@example.com", ["nobody@example.org"], message("nobody@example.org", "hi")))
    expect(noUser).toMatchObject({ code: 550, permanent: true })
    expect(noUser.message).toContain("no such user")
    const rejected = await failure(pool.send("a@example.com", ["cy@example.org"], message("cy@example.org", "REJECT me")))
    expect(rejected).toMatchObject({ code: 554, permanent: true })
    await Promise.all(["d1", "d2", "d3"].map((name) => pool.send("a@example.com", [`${name}@example.org`], message(`${name}@example.org`, name))))
    expect(delivered.map((d) => d.to)).toEqual(["d1@example.org", "d2@example.org", "d3@example.org"])
  })

  it("a message to several recipients waits for every RCPT TO answer, then goes as one chunk; a refused one is RSET, never sent", async () => {
    const { commands, delivered, pool } = await chunkingServer()
    await pool.send("a@example.com", ["ana@example.org", "bo@example.org"], message("ana@example.org", ".dot\r\nbody"))
    expect(commands).toEqual(["EHLO", "MAIL", "RCPT", "RCPT", "BDAT"])
    expect(delivered.map((d) => [d.raw, d.via])).toEqual([[message("ana@example.org", ".dot\r\nbody").toString(), "BDAT"]])
    commands.length = 0
    const error = await failure(pool.send("a@example.com", ["ana@example.org", "nobody@example.org"], message("ana@example.org", "hi")))
    expect(error).toMatchObject({ code: 550, permanent: true, maybeDelivered: false })
    expect(error.message).toContain("nobody@example.org")
    expect(commands).toEqual(["MAIL", "RCPT", "RCPT", "RSET"])
    expect(delivered).toHaveLength(1)
  })

  it("a connection lost after the chunk went out is 'maybe delivered': not sent again", async () => {
    const { delivered, pool } = await chunkingServer({ holdReplies: true })
    await pool.send("a@example.com", ["ok@example.org"], message("ok@example.org", "fine"))
    const lost = await failure(pool.send("a@example.com", ["gone@example.org"], message("gone@example.org", "DROP")))
    expect(lost).toMatchObject({ maybeDelivered: true, permanent: false })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(delivered.map((d) => d.to)).toEqual(["ok@example.org", "gone@example.org"])
  })
})
