import { Migrator, SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import foundation from "./0001_foundation.js"
import subscribers from "./0002_subscribers.js"
import nameKeys from "./0003_name_keys.js"
import campaigns from "./0004_campaigns.js"
import tracking from "./0005_tracking.js"
import imports from "./0006_imports.js"
import deliveryLeases from "./0007_delivery_leases.js"
import trackingSwitches from "./0008_tracking_switches.js"
import transactional from "./0009_transactional.js"
import events from "./0010_events.js"
import automations from "./0011_automations.js"
import failedSends from "./0012_failed_sends.js"
import engagementIndexes from "./0013_engagement_indexes.js"
import noGlobalEmailIndex from "./0014_no_global_email_index.js"
import eventIndexes from "./0015_event_indexes.js"
import countChanges from "./0016_count_changes.js"
import importWindows from "./0017_import_windows.js"

/** Every migration, keyed `<id>_<name>`; applied in order, each once. */
export const migrations = Migrator.fromRecord({
  "0001_foundation": foundation,
  "0002_subscribers": subscribers,
  "0003_name_keys": nameKeys,
  "0004_campaigns": campaigns,
  "0005_tracking": tracking,
  "0006_imports": imports,
  "0007_delivery_leases": deliveryLeases,
  "0008_tracking_switches": trackingSwitches,
  "0009_transactional": transactional,
  "0010_events": events,
  "0011_automations": automations,
  "0012_failed_sends": failedSends,
  "0013_engagement_indexes": engagementIndexes,
  "0014_no_global_email_index": noGlobalEmailIndex,
  "0015_event_indexes": eventIndexes,
  "0016_count_changes": countChanges,
  "0017_import_windows": importWindows
})

/** Applies pending migrations; returns the ones it ran. */
export const migrate = Migrator.make({})({ loader: migrations })

/** A layer that brings the schema up to date when it is built (at server start). */
export const MigrationsLive: Layer.Layer<never, never, SqlClient.SqlClient> = Layer.effectDiscard(
  migrate.pipe(
    Effect.tap((ran) => (ran.length > 0 ? Effect.logInfo(`Applied migrations: ${ran.map(([id, name]) => `${id}_${name}`).join(", ")}`) : Effect.void)),
    Effect.orDie
  )
)
