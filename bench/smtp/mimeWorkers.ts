/** EXPERIMENT (bench only): a round-robin pool of mimeWorker.ts threads. */
import { Worker } from "node:worker_threads"
import type { MailMessage } from "@mailroom/core"

export interface Built {
  readonly raw: Buffer
  readonly from: string
  readonly to: string
}

export class MimeWorkers {
  private readonly workers: Array<Worker>
  private readonly pending = new Map<number, { resolve: (b: Built) => void; reject: (e: Error) => void }>()
  private next = 0

  constructor(size: number) {
    this.workers = Array.from({ length: size }, () => {
      // the worker registers tsx itself: a worker does not inherit the parent's module loader
      const file = new URL("./mimeWorker.ts", import.meta.url).href
      const worker = new Worker(
        `import("tsx/esm/api").then(({ register }) => { register({ tsconfig: "tsconfig.check.json" }); return import(${JSON.stringify(file)}) })`,
        { eval: true }
      )
      worker.on("message", (m: { id: number; raw?: ArrayBuffer; from?: string; to?: string; error?: string }) => {
        const waiter = this.pending.get(m.id)
        this.pending.delete(m.id)
        if (m.raw) waiter?.resolve({ raw: Buffer.from(m.raw), from: m.from!, to: m.to! })
        else waiter?.reject(new Error(m.error))
      })
      return worker
    })
  }

  build(message: MailMessage): Promise<Built> {
    const id = this.next++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.workers[id % this.workers.length]!.postMessage({ id, message })
    })
  }

  close(): Promise<unknown> {
    return Promise.all(this.workers.map((w) => w.terminate()))
  }
}
