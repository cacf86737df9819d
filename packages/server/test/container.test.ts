/**
 * The container files: what the image must do (multi-stage, non-root, node as the entry point, a health check on
 * /healthz) and what compose starts (Postgres, the server, a worker). The image is built only where a container
 * runtime answers; the tests never need it.
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { REPOSITORY } from "./repositoryCopy.js"

const dockerfile = readFileSync(join(REPOSITORY, "Dockerfile"), "utf8")
const compose = readFileSync(join(REPOSITORY, "compose.yaml"), "utf8")

const dockerAnswers = (() => {
  try {
    execFileSync("docker", ["info"], { stdio: "ignore", timeout: 10_000 })
    return true
  } catch {
    return false
  }
})()

describe("container image", () => {
  it("builds in one stage and runs as node in another, with a health check and node itself as PID 1", () => {
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2)
    expect(dockerfile).toMatch(/^FROM node:\$\{NODE_VERSION\}-bookworm-slim AS build$/m)
    // npm ci runs `prepare`, which needs the build script next to the packages
    expect(dockerfile).toMatch(/^COPY scripts \.\/scripts$/m)
    expect(dockerfile).toMatch(/^RUN npm ci /m)
    expect(dockerfile).toMatch(/^COPY --from=build /m)
    expect(dockerfile).toMatch(/^USER node$/m)
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/healthz/m)
    const config = (JSON.parse(readFileSync(join(REPOSITORY, "package.json"), "utf8")) as { config: { node_flags: string; malloc_arena_max: string; malloc_mmap_threshold: string } }).config
    const flags = config.node_flags
    const entrypoint = ["node", ...flags.split(" "), "packages/server/dist/mailroom.mjs"]
    // the container runs node with the heap settings `npm start` uses
    expect(dockerfile).toContain(`ENTRYPOINT ${JSON.stringify(entrypoint).replaceAll(",", ", ")}\n`)
    // and the malloc arenas and mmap threshold `npm start` sets
    expect(dockerfile).toMatch(new RegExp(`^ENV MALLOC_ARENA_MAX=${config.malloc_arena_max}$`, "m"))
    expect(dockerfile).toMatch(new RegExp(`^ENV MALLOC_MMAP_THRESHOLD_=${config.malloc_mmap_threshold}$`, "m"))
    expect(dockerfile).toMatch(/^CMD \["serve"\]$/m)
  })

  it("compose runs Postgres, the server (workers off) and a worker on the same database", () => {
    const services = [...compose.matchAll(/^ {2}(\w+):$/gm)].map((match) => match[1])
    expect(services).toEqual(expect.arrayContaining(["postgres", "server", "worker"]))
    expect(compose).toMatch(/DATABASE_URL: postgres:\/\/mailroom:mailroom@postgres:5432\/mailroom/)
    expect(compose).toMatch(/command: \["worker"\]/)
    expect(compose).toMatch(/WORKERS: "false"/)
  })

  it.skipIf(!dockerAnswers)("docker build succeeds", () => {
    execFileSync("docker", ["build", "-q", "-t", "mailroom-ci", REPOSITORY], { stdio: "inherit", timeout: 900_000 })
  }, 900_000)
})
