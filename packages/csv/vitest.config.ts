import { defineProject } from "vitest/config"
import { aliases } from "../../vitest.aliases.js"

export default defineProject({
  resolve: { alias: aliases },
  test: { name: "csv", include: ["test/**/*.test.ts"], testTimeout: 30_000, hookTimeout: 60_000 }
})
