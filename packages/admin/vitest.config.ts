import { defineProject } from "vitest/config"
import { aliases } from "../../vitest.aliases.js"

export default defineProject({
  resolve: { alias: aliases },
  test: { name: "admin", include: ["test/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 120_000 }
})
