import type { Socket } from "node:net"

/** Reads lines, a dot-terminated body or a number of bytes from a socket, as the session asks for them. */
export class SocketReader {
  private buffer: Buffer = Buffer.alloc(0)
  private ended = false
  private wake: (() => void) | null = null

  constructor(socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk])
      this.notify()
    })
    socket.on("close", () => {
      this.ended = true
      this.notify()
    })
  }

  private notify() {
    const wake = this.wake
    this.wake = null
    wake?.()
  }

  private async take(find: (buffer: Buffer) => { readonly end: number; readonly skip: number } | null): Promise<Buffer | null> {
    for (;;) {
      const found = find(this.buffer)
      if (found !== null) {
        const part = this.buffer.subarray(0, found.end)
        this.buffer = this.buffer.subarray(found.end + found.skip)
        return part
      }
      if (this.ended) return null
      await new Promise<void>((resolve) => (this.wake = resolve))
    }
  }

  async line(): Promise<string | null> {
    const line = await this.take((b) => {
      const at = b.indexOf("\r\n")
      return at < 0 ? null : { end: at, skip: 2 }
    })
    return line === null ? null : line.toString("utf8")
  }

  /** A DATA body up to the line with a single dot, dot-unstuffed. */
  async body(): Promise<string | null> {
    const raw = await this.take((b) => {
      if (b.subarray(0, 3).toString() === ".\r\n") return { end: 0, skip: 3 }
      const at = b.indexOf("\r\n.\r\n")
      return at < 0 ? null : { end: at + 2, skip: 3 }
    })
    return raw === null ? null : raw.toString("utf8").replace(/^\.\./gm, ".")
  }

  async bytes(count: number): Promise<Buffer | null> {
    return this.take((b) => (b.length >= count ? { end: count, skip: 0 } : null))
  }
}
