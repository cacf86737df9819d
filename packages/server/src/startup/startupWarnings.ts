import { connect } from "node:net"
import { smtpAddress } from "@mailroom/smtp"
import { Effect } from "effect"
import type { EnvironmentConfig } from "../ServerConfig.js"

const loopback = (host: string) => host === "localhost" || host === "::1" || host.startsWith("127.")

/** Whether a TCP connection to host:port opens within `timeoutMs`: the failure's reason, or undefined. */
const tcpProblem = (host: string, port: number, timeoutMs: number): Promise<string | undefined> =>
  new Promise((resolve) => {
    const socket = connect({ host, port })
    const done = (problem: string | undefined) => {
      socket.destroy()
      resolve(problem)
    }
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs / 1000} s`))
    socket.once("connect", () => done(undefined))
    socket.once("error", (error: NodeJS.ErrnoException) => done(error.code === "ECONNREFUSED" ? "connection refused" : error.code ?? error.message))
  })

/**
 * Settings that work but probably not as meant, logged as warnings: links in mails that point at the listening address
 * of a public HOST because APP_URL is missing, and an SMTP server that cannot be reached now (mails wait and are retried).
 */
export const startupWarnings = (config: EnvironmentConfig) =>
  Effect.gen(function*() {
    if (!config.appUrlConfigured && !loopback(config.host)) {
      yield* Effect.logWarning(
        `APP_URL is not set: links in mails will point at ${config.appUrl}, which readers cannot reach; set APP_URL to the public URL`
      )
    }
    if (config.smtpUrl === null) return
    const { host, port } = smtpAddress(config.smtpUrl)
    const problem = yield* Effect.promise(() => tcpProblem(host, port, 3_000))
    if (problem !== undefined) {
      yield* Effect.logWarning(`SMTP_URL: cannot reach ${host}:${port} (${problem}); mails wait and are retried until it answers`)
    }
  })
