import { defineProject } from "vitest/config"
import { aliases } from "../vitest.aliases.js"

export default defineProject({
  resolve: { alias: aliases },
  test: { name: "examples", include: ["**/*.test.ts"] }
})
