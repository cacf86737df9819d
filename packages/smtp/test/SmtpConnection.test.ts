import { createServer, type Server, type Socket } from "node:net"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { SMTPServer, type SMTPServerOptions } from "smtp-server"
import { dotStuff, SmtpError } from "../src/internal/SmtpConnection.js"
import { SmtpPool } from "../src/internal/SmtpPool.js"
import { parseSmtpUrl } from "../src/internal/SmtpSettings.js"

interface Received {
  readonly to: ReadonlyArray<string>
  readonly raw: string
  readonly secure: boolean
  readonly user: string | undefined
}

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/** A real smtp-server on a random port with the given options; collects accepted messages. */
const server = async (options: SMTPServerOptions = {}) => {
  const received: Array<Received> = []
  const smtp = new SMTPServer({
    disableReverseLookup: true,
    logger: false,
    authOptional: true,
    closeTimeout: 200,
    ...options,
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
          secure: session.secure,
          user: typeof session.user === "string" ? session.user : undefined
        })
        callback(null)
      })
    }
  })
  smtp.on("error", () => undefined)
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve))
  const port = (smtp.server.address() as { port: number }).port
  closers.push(() => new Promise((resolve) => smtp.close(() => resolve())))
  return { port, received, smtp }
}

/** A scripted server: `reply(line, socket)` answers each command line the client sends. */
const scripted = async (greeting: string | null, reply: (line: string, socket: Socket, state: { data: boolean }) => void) => {
  const sockets = new Set<Socket>()
  const tcp: Server = createServer((socket) => {
    sockets.add(socket)
    const state = { data: false }
    let buffered = ""
    if (greeting !== null) socket.write(`${greeting}\r\n`)
    socket.on("data", (chunk) => {
      buffered += chunk.toString("latin1")
      for (let end = buffered.indexOf("\r\n"); end >= 0; end = buffered.indexOf("\r\n")) {
        const line = buffered.slice(0, end)
        buffered = buffered.slice(end + 2)
        if (state.data && line !== ".") continue
        reply(line, socket, state)
      }
    })
    socket.on("error", () => undefined)
  })
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve))
  closers.push(() =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy()
      tcp.close(() => resolve())
    }))
  return (tcp.address() as { port: number }).port
}

const message = (to: string, body = "Hello") =>
  Buffer.from(`From: news@example.com\r\nTo: ${to}\r\nSubject: Hi\r\n\r\n${body}\r\n`)

const pool = (url: string, connections = 2) => {
  const p = new SmtpPool(parseSmtpUrl(url), connections)
  closers.unshift(async () => p.close())
  return p
}

const failure = async (promise: Promise<unknown>): Promise<SmtpError> => {
  try {
    await promise
  } catch (error) {
    if (error instanceof SmtpError) return error
    throw error
  }
  throw new Error("expected the send to fail")
}

describe("SmtpPool over real SMTP servers", () => {
  it("upgrades with STARTTLS when offered and authenticates with AUTH PLAIN", async () => {
    const { port, received } = await server({
      authOptional: false,
      onAuth: (auth, _session, callback) =>
        auth.username === "mailer" && auth.password === "s3cr:et" ? callback(null, { user: "mailer" }) : callback(new Error("Bad login"))
    })
    await pool(`smtp://mailer:s3cr%3Aet@127.0.0.1:${port}?tls.rejectUnauthorized=false`).send("news@example.com", ["ana@example.org"], message("ana@example.org"))
    expect(received).toHaveLength(1)
    expect(received[0]).toMatchObject({ to: ["ana@example.org"], secure: true, user: "mailer" })
    expect(received[0]!.raw).toContain("Subject: Hi")
  })

  it("speaks implicit TLS on smtps:// and AUTH LOGIN when PLAIN is not offered", async () => {
    const { port, received } = await server({
      secure: true,
      authMethods: ["LOGIN"],
      authOptional: false,
      onAuth: (auth, _session, callback) => callback(null, { user: `${auth.method}:${auth.username}` })
    })
    await pool(`smtps://mailer:pw@127.0.0.1:${port}?tls.rejectUnauthorized=false`).send("news@example.com", ["bo@example.org"], message("bo@example.org"))
    expect(received[0]).toMatchObject({ secure: true, user: "LOGIN:mailer" })
  })

  it("refuses a self-signed certificate unless told otherwise, as a temporary error", async () => {
    const { port, received } = await server({ secure: true })
    const error = await failure(pool(`smtps://127.0.0.1:${port}`).send("a@example.com", ["b@example.org"], message("b@example.org")))
    expect(error.permanent).toBe(false)
    expect(error.message).toMatch(/self-signed|certificate/i)
    expect(received).toHaveLength(0)
  })

  it("a refused login is a temporary error (configuration, not the recipient)", async () => {
    const { port } = await server({ authOptional: false, onAuth: (_auth, _session, callback) => callback(new Error("Invalid credentials")) })
    const error = await failure(pool(`smtp://x:y@127.0.0.1:${port}?tls.rejectUnauthorized=false`).send("a@example.com", ["b@example.org"], message("b@example.org")))
    expect(error.permanent).toBe(false)
    expect(error.message).toContain("535")
  })

  it("requireTLS refuses to send over a server without STARTTLS", async () => {
    const { port, received } = await server({ disabledCommands: ["STARTTLS"] })
    const error = await failure(pool(`smtp://127.0.0.1:${port}?requireTLS=true`).send("a@example.com", ["b@example.org"], message("b@example.org")))
    expect(error.message).toMatch(/STARTTLS/)
    expect(received).toHaveLength(0)
  })

  it("a refused recipient fails that message only; the connection goes on with the next", async () => {
    const { port, received } = await server({
      disabledCommands: ["STARTTLS"],
      onRcptTo: (address, _session, callback) =>
        address.address.startsWith("nobody") ? callback(Object.assign(new Error("5.1.1 No such user"), { responseCode: 550 })) : callback()
    })
    const p = pool(`smtp://127.0.0.1:${port}`, 1)
    const error = await failure(p.send("a@example.com", ["nobody@example.org"], message("nobody@example.org")))
    expect(error).toMatchObject({ code: 550, permanent: true })
    expect(error.message).toContain("550 5.1.1 No such user")
    await p.send("a@example.com", ["ok@example.org"], message("ok@example.org"))
    expect(received.map((r) => r.to)).toEqual([["ok@example.org"]])
  })

  it("sends many messages over a few connections, byte for byte, lines starting with a dot included", async () => {
    const { port, received } = await server({ disabledCommands: ["STARTTLS"] })
    const p = pool(`smtp://127.0.0.1:${port}`, 3)
    const body = (i: number) => `.starts with a dot ${i}\r\n..two\r\n.\r\nlast line`
    await Promise.all(Array.from({ length: 60 }, (_, i) => p.send("a@example.com", [`r${i}@example.org`], message(`r${i}@example.org`, body(i)))))
    expect(received).toHaveLength(60)
    const r7 = received.find((r) => r.to[0] === "r7@example.org")!
    expect(r7.raw).toBe(message("r7@example.org", body(7)).toString())
  })

  it("refuses a message above the server's SIZE before sending it", async () => {
    const { port, received } = await server({ disabledCommands: ["STARTTLS"], size: 100 })
    const error = await failure(pool(`smtp://127.0.0.1:${port}`).send("a@example.com", ["b@example.org"], message("b@example.org", "x".repeat(200))))
    expect(error).toMatchObject({ permanent: true, code: 552 })
    expect(received).toHaveLength(0)
  })
})

describe("SmtpPool against scripted servers", () => {
  const ok = (line: string, socket: Socket, state: { data: boolean }) => {
    if (/^(EHLO|HELO)/.test(line)) socket.write("250 ok\r\n")
    else if (line === "DATA") {
      state.data = true
      socket.write("354 go ahead\r\n")
    } else if (line === ".") {
      state.data = false
      socket.write("250 queued\r\n")
    } else if (line === "QUIT") socket.end("221 bye\r\n")
    else socket.write("250 ok\r\n")
  }

  it("works without PIPELINING, one command at a time, and falls back to HELO", async () => {
    const commands: Array<string> = []
    let answering = false
    let overlapping = 0
    const port = await scripted("220 old.example ESMTP", (line, socket, state) => {
      commands.push(line.split(/[: ]/)[0]!)
      if (answering) overlapping++
      answering = true
      setTimeout(() => {
        answering = false
        if (line.startsWith("EHLO")) socket.write("502 command not implemented\r\n")
        else ok(line, socket, state)
      }, 10)
    })
    await pool(`smtp://127.0.0.1:${port}`).send("a@example.com", ["b@example.org"], message("b@example.org"))
    expect(commands).toEqual(["EHLO", "HELO", "MAIL", "RCPT", "DATA", "."])
    expect(overlapping).toBe(0)
  })

  it("without PIPELINING sends to several recipients one command at a time, and a refused one is RSET before DATA", async () => {
    const commands: Array<string> = []
    const port = await scripted("220 old.example ESMTP", (line, socket, state) => {
      commands.push(line.split(/[: ]/)[0]!)
      if (line === "RCPT TO:<nobody@example.org>") socket.write("550 5.1.1 no such user\r\n")
      else ok(line, socket, state)
    })
    const p = pool(`smtp://127.0.0.1:${port}`, 1)
    await p.send("a@example.com", ["b@example.org", "c@example.org"], message("b@example.org"))
    expect(commands).toEqual(["EHLO", "MAIL", "RCPT", "RCPT", "DATA", "."])
    commands.length = 0
    const error = await failure(p.send("a@example.com", ["b@example.org", "nobody@example.org", "c@example.org"], message("b@example.org")))
    expect(error).toMatchObject({ code: 550, permanent: true })
    expect(error.message).toBe("SMTP RCPT TO:<nobody@example.org> refused: 550 5.1.1 no such user")
    expect(commands).toEqual(["MAIL", "RCPT", "RCPT", "RSET"])
  })

  it("a message without recipients fails as permanent before any command", async () => {
    const commands: Array<string> = []
    const port = await scripted("220 ready", (line, socket, state) => {
      commands.push(line.split(/[: ]/)[0]!)
      ok(line, socket, state)
    })
    const error = await failure(pool(`smtp://127.0.0.1:${port}`).send("a@example.com", [], message("x")))
    expect(error).toMatchObject({ code: null, permanent: true, message: "The message has no recipients" })
    expect(commands).toEqual(["EHLO"])
  })

  it("a 421 greeting is a temporary error", async () => {
    const port = await scripted("421 too busy, try later", () => undefined)
    const error = await failure(pool(`smtp://127.0.0.1:${port}`).send("a@example.com", ["b@example.org"], message("b@example.org")))
    expect(error).toMatchObject({ code: 421, permanent: false })
  })

  it("a server that stops answering times out as a temporary error", async () => {
    const port = await scripted("220 ready", (line, socket, state) => (line.startsWith("MAIL") ? undefined : ok(line, socket, state)))
    const error = await failure(pool(`smtp://127.0.0.1:${port}?socketTimeout=300`).send("a@example.com", ["b@example.org"], message("b@example.org")))
    expect(error.permanent).toBe(false)
    expect(error.message).toContain("No answer")
  })

  it("a connection the server dropped while idle is replaced without failing the next message", async () => {
    let connections = 0
    let mails = 0
    const port = await scripted("220 ready", (line, socket, state) => {
      if (line.startsWith("EHLO")) connections++
      ok(line, socket, state)
      if (line === ".") {
        mails++
        setTimeout(() => socket.destroy(), 20)
      }
    })
    const p = pool(`smtp://127.0.0.1:${port}`, 1)
    await p.send("a@example.com", ["b@example.org"], message("b@example.org"))
    await new Promise((resolve) => setTimeout(resolve, 100))
    await p.send("a@example.com", ["c@example.org"], message("c@example.org"))
    expect(mails).toBe(2)
    expect(connections).toBe(2)
  })

  it("connection refused fails every waiting message with a temporary error", async () => {
    const port = await scripted(null, () => undefined)
    closers.shift()!()
    await new Promise((resolve) => setTimeout(resolve, 50))
    const p = pool(`smtp://127.0.0.1:${port}`, 2)
    const errors = await Promise.all([1, 2, 3].map((i) => failure(p.send("a@example.com", [`r${i}@example.org`], message("x")))))
    for (const error of errors) expect(error).toMatchObject({ permanent: false, code: null })
    expect(errors[0]!.message).toContain("ECONNREFUSED")
  })
})

describe("dotStuff", () => {
  it("doubles dots at line starts only, and leaves other messages as they are", () => {
    const plain = Buffer.from("a.b\r\nc\r\n")
    expect(dotStuff(plain)).toBe(plain)
    expect(dotStuff(Buffer.from(".a\r\n.\r\nb.\r\n..c")).toString()).toBe("..a\r\n..\r\nb.\r\n...c")
  })
})
