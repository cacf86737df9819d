/**
 * Real-process helpers for delivery acceptance tests: spawn the CLI as users run it (the bundle
 * `packages/server/dist/mailroom.mjs`, brought up to date by vitest's global setup) as `serve` or `worker`, find free
 * ports, wait until the HTTP API answers, call it with JSON, and make sure no child outlives the test run (every child
 * is SIGKILLed on `killAll()` and at process exit).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"
import { setTimeout as sleep } from "node:timers/promises"

/** The compiled CLI entry point. */
export const MAIN = fileURLToPath(new URL("../dist/mailroom.mjs", import.meta.url))

/** Configuration variables of the server that must not leak in from the test environment. */
const CONFIG_KEYS = [
  "PORT",
  "HOST",
  "DATABASE_URL",
  "API_TOKEN",
  "APP_URL",
  "LOG_REQUESTS",
  "SMTP_URL",
  "OUTBOX_DIR",
  "WORKERS",
  "DELIVERY_RATE",
  "DELIVERY_CONCURRENCY",
  "DELIVERY_LEASE_SECONDS",
  "DELIVERY_RETRY_HOURS",
  "SOFT_BOUNCE_LIMIT",
  "BOUNCE_ADDRESS",
  "FEEDBACK_ID",
  "RATE_LIMIT_PER_MINUTE",
  "LOG_FORMAT",
  "LOG_LEVEL",
  "METRICS_TOKEN"
]

const live = new Set<ChildProcess>()
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL")
})

/** A random port in 40000–50000 that could be bound on 127.0.0.1 just now. */
export const freePort = async (): Promise<number> => {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 40_000 + Math.floor(Math.random() * 10_000)
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer()
      probe.once("error", () => resolve(false))
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)))
    })
    if (free) return port
  }
  throw new Error("freePort: no free port in 40000-50000 after 50 attempts")
}

/** A running `mailroom` child process. */
export interface MailroomProcess {
  readonly name: string
  readonly child: ChildProcess
  readonly pid: number
  /** Everything it wrote to stdout and stderr so far. */
  readonly output: () => string
  /** Resolves when it has exited. */
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
  /** True once it has exited. */
  readonly hasExited: () => boolean
  /** Resolves when its output matches `pattern`; rejects when it exits first or after `timeoutMs`. */
  readonly waitForOutput: (pattern: RegExp, timeoutMs?: number) => Promise<void>
  /** Sends `signal` (default SIGKILL) and waits until it has exited. */
  readonly kill: (signal?: NodeJS.Signals) => Promise<void>
}

/** Starts `node dist/mailroom.mjs <command>` with exactly the given Mailroom configuration (no inherited config vars). */
export const startMailroom = (
  name: string,
  command: "serve" | "worker",
  env: Record<string, string>,
  cwd: string
): MailroomProcess => {
  const base: Record<string, string | undefined> = { ...process.env }
  for (const key of CONFIG_KEYS) delete base[key]
  const child = spawn(process.execPath, [MAIN, command], { cwd, env: { ...base, ...env }, stdio: ["ignore", "pipe", "pipe"] })
  live.add(child)
  const chunks: Array<string> = []
  const listeners = new Set<() => void>()
  const onChunk = (chunk: Buffer) => {
    chunks.push(chunk.toString("utf8"))
    for (const listener of listeners) listener()
  }
  child.stdout!.on("data", onChunk)
  child.stderr!.on("data", onChunk)
  let done = false
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      done = true
      live.delete(child)
      for (const listener of listeners) listener()
      resolve({ code, signal })
    })
  })
  const output = () => chunks.join("")
  return {
    name,
    child,
    pid: child.pid!,
    output,
    exited,
    hasExited: () => done,
    waitForOutput: (pattern, timeoutMs = 30_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(output())) finish()
          else if (done) finish(new Error(`${name} exited before printing ${pattern}:\n${tail(output())}`))
        }
        const finish = (error?: Error) => {
          listeners.delete(check)
          clearTimeout(timer)
          if (error) reject(error)
          else resolve()
        }
        const timer = setTimeout(() => finish(new Error(`${name} did not print ${pattern} within ${timeoutMs} ms:\n${tail(output())}`)), timeoutMs)
        listeners.add(check)
        check()
      }),
    kill: async (signal = "SIGKILL") => {
      if (!done) child.kill(signal)
      await exited
    }
  }
}

/** The last lines of a process log, for error messages. */
export const tail = (text: string, lines = 30): string => text.split("\n").slice(-lines).join("\n")

/** SIGKILLs every child still running and waits for them. */
export const killAll = async (): Promise<void> => {
  await Promise.all([...live].map((child) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once("exit", () => resolve())
      child.kill("SIGKILL")
    })
  ))
}

/** A JSON reply of the API. */
export interface ApiReply {
  readonly status: number
  readonly body: any
  readonly text: string
}

/** Calls the API at `baseUrl` with the bearer `token`; `body` is sent as JSON. */
export const apiCall = async (baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<ApiReply> => {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(15_000)
  })
  const text = await response.text()
  let parsed: unknown = undefined
  try {
    parsed = text === "" ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: response.status, body: parsed, text }
}

/** A `serve` process whose HTTP API answers. */
export interface ServeProcess {
  readonly process: MailroomProcess
  readonly port: number
  readonly url: string
  readonly call: (method: string, path: string, body?: unknown) => Promise<ApiReply>
}

/**
 * Starts `serve` on a free port (or `port` when given) and waits until `GET /api/email-lists` answers 200 with the
 * token; when the port was taken in the meantime (EADDRINUSE, or the start-up check saying so) it retries on another one.
 */
export const startServe = async (
  name: string,
  env: Record<string, string> & { readonly API_TOKEN: string },
  cwd: string,
  options: { readonly port?: number; readonly timeoutMs?: number } = {}
): Promise<ServeProcess> => {
  const timeoutMs = options.timeoutMs ?? 60_000
  let preferred = options.port
  for (let attempt = 1; attempt <= 5; attempt++) {
    const port = preferred ?? await freePort()
    preferred = undefined
    const proc = startMailroom(name, "serve", { ...env, PORT: String(port), HOST: "127.0.0.1" }, cwd)
    const url = `http://127.0.0.1:${port}`
    const call = (method: string, path: string, body?: unknown) => apiCall(url, env.API_TOKEN, method, path, body)
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline && !proc.hasExited()) {
      const up = await call("GET", "/api/email-lists?per_page=1").then((r) => r.status === 200, () => false)
      if (up) return { process: proc, port, url, call }
      await sleep(100)
    }
    if (!proc.hasExited()) {
      await proc.kill()
      throw new Error(`${name} did not answer on ${url} within ${timeoutMs} ms:\n${tail(proc.output())}`)
    }
    if (!/EADDRINUSE|PORT: \d+ is already in use/.test(proc.output())) throw new Error(`${name} exited at start:\n${tail(proc.output())}`)
  }
  throw new Error(`${name}: every port tried was in use`)
}

/** Polls `GET /api/campaigns/{uuid}` until its status is `status`; the last campaign body. */
export const waitForCampaignStatus = async (
  server: ServeProcess,
  uuid: string,
  status: string,
  timeoutMs: number,
  watch: ReadonlyArray<MailroomProcess> = []
): Promise<any> => {
  const deadline = Date.now() + timeoutMs
  let last: any = undefined
  while (Date.now() < deadline) {
    const dead = watch.find((p) => p.hasExited())
    if (dead) throw new Error(`${dead.name} exited while waiting for campaign ${status}:\n${tail(dead.output())}`)
    const reply = await server.call("GET", `/api/campaigns/${uuid}`).catch(() => undefined)
    if (reply?.status === 200) {
      last = reply.body.data
      if (last.status === status) return last
    }
    await sleep(250)
  }
  throw new Error(`campaign ${uuid} not ${status} after ${timeoutMs} ms (last: ${JSON.stringify(last?.status)}, ` +
    `sent_to ${JSON.stringify(last?.sent_to_number_of_subscribers)})`)
}

/** Addresses (envelope recipients) counted over every message. */
export const countRecipients = (mails: ReadonlyArray<{ readonly to: ReadonlyArray<string> }>): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const mail of mails) for (const to of mail.to) counts.set(to.toLowerCase(), (counts.get(to.toLowerCase()) ?? 0) + 1)
  return counts
}
