/**
 * A TCP proxy in front of a server (Postgres in the fault tests) that can cut it off: every open connection is reset
 * and new ones are refused for a while, which is what the clients of a restarting database see, without touching the
 * database that every other test shares.
 */
import { createConnection, createServer, type Socket } from "node:net"

/** A running proxy. */
export interface TcpProxy {
  readonly port: number
  /** Connections accepted so far. */
  readonly connections: () => number
  /** Resets every open connection and refuses new ones for `ms` milliseconds. */
  readonly cut: (ms: number) => Promise<void>
  readonly close: () => Promise<void>
}

/** Starts a proxy on 127.0.0.1 (a free port) to `host:port`. */
export const startTcpProxy = async (host: string, port: number): Promise<TcpProxy> => {
  const open = new Set<Socket>()
  let refuseUntil = 0
  let accepted = 0
  const server = createServer((client) => {
    accepted++
    if (Date.now() < refuseUntil) return client.resetAndDestroy()
    const upstream = createConnection({ host, port })
    for (const socket of [client, upstream]) {
      open.add(socket)
      socket.on("error", () => undefined)
      socket.on("close", () => {
        open.delete(socket)
        client.destroy()
        upstream.destroy()
      })
    }
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("TcpProxy: no TCP address")
  return {
    port: address.port,
    connections: () => accepted,
    cut: async (ms) => {
      refuseUntil = Date.now() + ms
      for (const socket of open) socket.resetAndDestroy()
      await new Promise((resolve) => setTimeout(resolve, ms))
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy()
        server.close(() => resolve())
      })
  }
}
