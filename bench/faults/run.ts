/**
 * Reliability benchmark: the fault scenarios of the delivery tests at full size (20,000 subscribers, default
 * settings), each on the stores it concerns, with a real Postgres restart instead of the tests' proxy. Prints one
 * table row per run: mails, duplicates, missing, the bound duplicates must stay within, the longest stall at the SMTP
 * server and the total time. Usage: npm run bench:faults [-- --count 20000 --only drops,slow,crash,outage,database,pause]
 */
import { execSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { setTimeout as sleep } from "node:timers/promises"
import { type Delivered, type Rig, type RigOptions, startRig } from "../../packages/server/test/faults.support.js"
import { arg, machine } from "../lib.js"

const COUNT = arg("count", 20_000)
const only = (() => {
  const i = process.argv.indexOf("--only")
  return i > 0 ? new Set((process.argv[i + 1] ?? "").split(",")) : null
})()
/** Mails in flight per process by default (DELIVERY_CONCURRENCY): what a killed process may send twice. */
const IN_FLIGHT = 64

interface Scenario {
  readonly name: string
  readonly key: string
  readonly options: RigOptions
  readonly count: number
  /** Most duplicates allowed (in-flight mails of the processes killed). */
  readonly bound: number
  /** What happens once the campaign is sent to; a note for the table. */
  readonly act: (rig: Rig, uuid: string, count: number) => Promise<string>
}

const dropEveryFiftieth = ({ index, stage }: { readonly index: number; readonly stage: string }) =>
  stage === "message" && index % 50 === 7 ? { drop: true } as const : undefined

const pgVersion = () => readdirSync("/etc/postgresql")[0]!
const pgctl = (action: string) => execSync(`pg_ctlcluster --skip-systemctl-redirect ${pgVersion()} main ${action}`, { stdio: "ignore" })

const kills = (times: number) => async (rig: Rig, _: string, count: number) => {
  for (let kill = 0; kill < times; kill++) {
    await rig.sink.waitFor((kill + 1) * Math.floor(count / (times + 2)), 600_000)
    await rig.crash(kill % Math.max(1, rig.workers.length))
  }
  return `${times} × kill -9`
}

const scenarios: ReadonlyArray<Scenario> = [
  ...(["sqlite", "postgres"] as const).map((store): Scenario => ({
    name: `connection dropped after the final "." / BDAT chunk before the 250, 2 % of mails (${store === "sqlite" ? "DATA" : "BDAT"})`,
    key: "drops",
    options: { store, workers: 2, smtp: { chunking: store === "postgres", fault: dropEveryFiftieth } },
    count: COUNT / 2,
    bound: 0,
    act: async () => "2 % dropped"
  })),
  {
    name: "slow MTA, 1.5 s per reply, no crash",
    key: "slow",
    options: { store: "postgres", workers: 3, smtp: { replyDelayMs: 1_500 } },
    count: 1_000,
    bound: 0,
    act: async () => "3 worker processes"
  },
  ...(["sqlite", "postgres"] as const).map((store): Scenario => ({
    name: "kill -9 five times, sink 10 ms per reply",
    key: "crash",
    options: { store, workers: 2, smtp: { replyDelayMs: 10 } },
    count: COUNT,
    bound: 5 * IN_FLIGHT,
    act: kills(5)
  })),
  ...(["sqlite", "postgres"] as const).map((store): Scenario => ({
    name: "SMTP server down for 60 s mid-send",
    key: "outage",
    options: { store, workers: 2, smtp: { replyDelayMs: 2 } },
    count: COUNT,
    bound: 0,
    act: async (rig, uuid, count) => {
      await rig.sink.waitFor(count / 4, 600_000)
      rig.sink.settings.down = true
      await sleep(60_000)
      rig.sink.settings.down = false
      const back = performance.now()
      await rig.waitForStatus(uuid, "sent", 1_800_000)
      return `sent ${((performance.now() - back) / 1000).toFixed(1)} s after SMTP came back`
    }
  })),
  {
    name: "Postgres restarted mid-send (stopped 3 s)",
    key: "database",
    options: { store: "postgres", workers: 2, smtp: { replyDelayMs: 2 } },
    count: COUNT,
    bound: 0,
    act: async (rig, _, count) => {
      await rig.sink.waitFor(count / 4, 600_000)
      pgctl("stop -m fast")
      await sleep(3_000)
      pgctl("start")
      return "restart"
    }
  },
  ...(["sqlite", "postgres"] as const).map((store): Scenario => ({
    name: "pause, kill -9 100 ms later, restart, resume",
    key: "pause",
    options: { store, workers: 2, smtp: { replyDelayMs: 2 } },
    count: COUNT,
    bound: IN_FLIGHT,
    act: async (rig, uuid, count) => {
      await rig.sink.waitFor(count / 5, 600_000)
      await rig.api.call("POST", `/api/campaigns/${uuid}/pause`)
      const atPause = rig.sink.received.length
      await sleep(100)
      await rig.crash(0)
      await sleep(2_000)
      const after = rig.sink.received.length - atPause
      await rig.api.call("POST", `/api/campaigns/${uuid}/resume`)
      return `${after} mails after the 204`
    }
  }))
]

const rows: Array<string> = []
for (const scenario of scenarios.filter((s) => only === null || only.has(s.key))) {
  const rig = await startRig(scenario.options)
  try {
    const { eligible, uuid } = await rig.campaign(scenario.count)
    const started = performance.now()
    await rig.send(uuid)
    const note = await scenario.act(rig, uuid, scenario.count)
    const sent = await rig.waitForStatus(uuid, "sent", 1_800_000)
    const seconds = (performance.now() - started) / 1000
    const report: Delivered = await rig.report(uuid, eligible)
    const processes = scenario.options.store === "sqlite" ? "server" : `API + ${scenario.options.workers ?? 2} workers`
    const row = `| ${scenario.name} | ${scenario.options.store} | ${processes} | ${scenario.count} | ${report.mails} | ` +
      `${report.duplicates} | ${report.missing} | ${scenario.bound} | ${sent.status} | ${(report.longestGapMs / 1000).toFixed(1)} | ` +
      `${seconds.toFixed(1)} | ${note}; ${rig.sink.dropped.message} dropped, ${report.sends.uncertain} uncertain |`
    console.log(row)
    rows.push(row)
  } catch (error) {
    console.log(`${scenario.name} (${scenario.options.store}) failed: ${String(error)}`)
    for (const proc of rig.processes) console.log(`--- ${proc.name} ---\n${proc.output().split("\n").slice(-15).join("\n")}`)
  } finally {
    await rig.close()
  }
}

console.log(`\n${machine()}; default settings (DELIVERY_CONCURRENCY 64, leases 30 s), FaultySmtpServer in the bench process.`)
console.log("| scenario | store | processes | subscribers | mails | duplicates | missing | duplicate bound | status | longest stall s | seconds | notes |")
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|")
for (const row of rows) console.log(row)
