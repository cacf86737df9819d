import { defineProject } from "vitest/config"
import { aliases } from "../../vitest.aliases.js"

export default defineProject({
  resolve: { alias: aliases },
  test: {
    name: "postgres",
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // after the other projects, not beside them: the outbox reads an event once every older writing transaction on
    // the server has ended (transaction ids are server-wide), so another project's import batches, committing in
    // other schemas, held back the events these contract tests expect to read at once
    sequence: { groupOrder: 1 }
  }
})
