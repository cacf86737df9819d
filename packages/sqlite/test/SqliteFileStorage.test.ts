import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { StorageSuite } from "@mailroom/core/storage-suite"
import { SqliteStorage } from "@mailroom/sqlite"
import { Effect, Layer } from "effect"

/** The store on a file of its own, removed afterwards: reads outside transactions take the second connection there. */
const onFile = () => {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-suite-"))
  const removed = Layer.scopedDiscard(Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))))
  return SqliteStorage({ filename: join(dir, "db.sqlite") }).pipe(Layer.provideMerge(removed))
}

StorageSuite("sqlite file", onFile)
