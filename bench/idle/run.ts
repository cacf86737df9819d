/**
 * Idle benchmark: the server as `npm start` runs it (its node flags, workers inside) on a fresh SQLite database,
 * answering the few requests that see it up, then left alone; its resident memory (VmRSS from /proc) every 15 s from 10 to
 * 85 s after start, then every minute to 10 minutes (an idle heap collects its pollers' garbage only every few minutes),
 * and its peak (VmHWM). Usage: npm run bench:idle [-- --seconds 600]
 */
import { rmSync } from "node:fs"
import { setTimeout as sleep } from "node:timers/promises"
import { arg, closeClient, machine, peakRssMb, rssMb, startServer, stopServer } from "../lib.js"

const SECONDS = arg("seconds", 600)

/** When RSS is read, in seconds after start: every 15 s for the first 85, then every minute. */
const MOMENTS: Array<number> = []
for (let at = 10; at <= SECONDS; at += at < 85 ? 15 : 60) MOMENTS.push(at)
const SQLITE_FILE = "./bench/idle/data/idle.db"

rmSync("bench/idle/data", { recursive: true, force: true })
const started = performance.now()
const server = await startServer(`sqlite:${SQLITE_FILE}`, 3930, { WORKERS: "true" })
const readings: Array<[number, number]> = []
try {
  for (const at of MOMENTS) {
    await sleep(Math.max(0, started + at * 1000 - performance.now()))
    readings.push([at, rssMb(server.pid)])
  }
  const peak = peakRssMb(server.pid)
  console.log(`\n${machine()}; \`serve\` with npm start's node flags, a fresh SQLite database, idle after start-up.`)
  console.log(`| seconds after start | ${readings.map(([at]) => at).join(" | ")} | peak |`)
  console.log(`|---|${readings.map(() => "---|").join("")}---|`)
  console.log(`| RSS MB | ${readings.map(([, mb]) => mb.toFixed(0)).join(" | ")} | ${peak.toFixed(0)} |`)
} finally {
  await stopServer(server)
  closeClient()
}
