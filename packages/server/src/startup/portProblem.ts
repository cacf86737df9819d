import { createServer } from "node:net"

/** Whether the HTTP server could listen on host:port now: what is wrong (and which variable), or undefined. */
export const portProblem = (host: string, port: number): Promise<string | undefined> =>
  new Promise((resolve) => {
    const probe = createServer()
    probe.once("error", (error: NodeJS.ErrnoException) => {
      resolve(
        error.code === "EADDRINUSE"
          ? `PORT: ${port} is already in use on ${host} (another Mailroom or program listens there; choose another PORT)`
          : error.code === "EACCES"
          ? `PORT: permission denied for port ${port} (ports below 1024 need privileges)`
          : error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND" || error.code === "EAI_AGAIN"
          ? `HOST: ${host} is not an address of this machine`
          : `PORT/HOST: cannot listen on ${host}:${port} (${error.message})`
      )
    })
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)))
  })
