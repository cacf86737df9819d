import { SmtpConnection, SmtpError } from "./SmtpConnection.js"
import type { SmtpSettings } from "./SmtpSettings.js"

interface Job {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly raw: Buffer
  readonly dotStuffed: boolean
  readonly resolve: () => void
  readonly reject: (error: SmtpError) => void
  retried: boolean
}

/**
 * Up to `maxConnections` SmtpConnections sharing one queue of messages. Connections open when messages wait and
 * stay open while there is work (idle ones close after the socket timeout). A message whose connection broke before
 * its bytes went out is tried once more on another connection; when no connection can be opened at all, the waiting
 * messages fail with the connection error (the delivery engine retries them later).
 */
export class SmtpPool {
  private readonly idle: Array<SmtpConnection> = []
  private readonly queue: Array<Job> = []
  private live = 0
  private opening = 0
  private closed = false
  private lastChunking: boolean | undefined = undefined

  constructor(
    private readonly settings: SmtpSettings,
    private readonly maxConnections: number,
    /** Told of every connection that could not be opened (refused, timed out, TLS or greeting failed). */
    private readonly onConnectFailure: (error: SmtpError) => void = () => {}
  ) {}

  /**
   * Whether the last connection opened takes messages in BDAT chunks (then bytes should not be dot-stuffed ahead);
   * undefined before any connection opened. Every connection copes with either form.
   */
  get chunking(): boolean | undefined {
    return this.lastChunking
  }

  /**
   * Sends one message to its envelope recipients, all of them or none (`dotStuffed`: its line-initial dots are
   * doubled already); resolves when the server accepted it.
   */
  send(from: string, to: ReadonlyArray<string>, raw: Buffer, dotStuffed = false): Promise<void> {
    if (this.closed) return Promise.reject(new SmtpError("The SMTP pool is closed", null, false))
    return new Promise((resolve, reject) => {
      this.queue.push({ from, to, raw, dotStuffed, resolve, reject, retried: false })
      this.pump()
    })
  }

  /** Fails what still waits and says QUIT on every idle connection; busy ones quit when their message is done. */
  close(): void {
    this.closed = true
    const error = new SmtpError("The SMTP pool is closed", null, false)
    for (const job of this.queue.splice(0)) job.reject(error)
    for (const connection of this.idle.splice(0)) connection.quit()
  }

  private pump() {
    while (this.queue.length > 0) {
      const connection = this.takeIdle()
      if (connection !== undefined) {
        this.run(connection, this.queue.shift()!)
      } else if (this.live + this.opening < this.maxConnections && this.opening < this.queue.length) {
        this.connect()
      } else {
        return
      }
    }
  }

  private takeIdle(): SmtpConnection | undefined {
    for (let connection = this.idle.pop(); connection !== undefined; connection = this.idle.pop()) {
      if (connection.usable) return connection
    }
    return undefined
  }

  private connect() {
    this.opening++
    SmtpConnection.open(this.settings).then(
      (connection) => {
        this.opening--
        this.live++
        this.lastChunking = connection.chunking
        connection.onClosed = () => {
          this.live--
          const at = this.idle.indexOf(connection)
          if (at >= 0) this.idle.splice(at, 1)
          this.pump()
        }
        if (this.closed) return connection.quit()
        this.idle.push(connection)
        this.pump()
      },
      (error: SmtpError) => {
        this.opening--
        this.onConnectFailure(error)
        if (this.live === 0 && this.opening === 0) for (const job of this.queue.splice(0)) job.reject(error)
      }
    )
  }

  private run(connection: SmtpConnection, job: Job) {
    connection.send(job.from, job.to, job.raw, job.dotStuffed).then(job.resolve, (error: SmtpError) => {
      const safeToRetry = error.code === null && !error.permanent && !error.maybeDelivered && !job.retried
      if (safeToRetry && !this.closed) {
        job.retried = true
        this.queue.unshift(job)
      } else {
        job.reject(error)
      }
    }).finally(() => {
      if (connection.usable) {
        if (this.closed) connection.quit()
        else this.idle.push(connection)
      }
      this.pump()
    })
  }
}
