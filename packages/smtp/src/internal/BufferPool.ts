/**
 * Reusable message buffers. A mail's bytes live only until the server accepted them, so instead of leaving one
 * 40 KB Buffer per mail to the garbage collector (at 2,000 mails/s that kept ~70 MB of dead external memory around),
 * buffers come back here and serve the next mails. Sizes are rounded up to powers of two; at most `limit` bytes wait
 * in the pool, anything beyond is left to the collector.
 */
export class BufferPool {
  private readonly free = new Map<number, Array<Buffer>>()
  private pooled = 0

  constructor(private readonly limit = 16 * 1024 * 1024) {}

  /** A buffer of exactly `size` bytes (a view of a pooled one); hand `release(buffer)` back when done. */
  take(size: number): Buffer {
    const capacity = size <= 1024 ? 1024 : 2 ** Math.ceil(Math.log2(size))
    const spare = this.free.get(capacity)?.pop()
    if (spare !== undefined) {
      this.pooled -= capacity
      return spare.subarray(0, size)
    }
    return Buffer.allocUnsafeSlow(capacity).subarray(0, size)
  }

  /** Returns a buffer from `take` to the pool. */
  release(buffer: Buffer): void {
    const whole = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.buffer.byteLength - buffer.byteOffset)
    const capacity = whole.length
    if (buffer.byteOffset !== 0 || (capacity & (capacity - 1)) !== 0 || this.pooled + capacity > this.limit) return
    const list = this.free.get(capacity)
    if (list === undefined) this.free.set(capacity, [whole])
    else list.push(whole)
    this.pooled += capacity
  }
}

/** The pool of this process's SMTP messages. */
export const messageBuffers = new BufferPool()
