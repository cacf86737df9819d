import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    globalSetup: ["./vitest.setup.ts"],
    projects: ["packages/*", "examples"],
    // vitest's default is one file per core but one: a single file at a time on 2 cores, where the slowest files
    // mostly wait (leases running out, slow receivers, a real one-minute wait); two at a time took 788 s there
    // instead of 1,110 s
    maxWorkers: Math.max(2, availableParallelism() - 1)
  }
})
