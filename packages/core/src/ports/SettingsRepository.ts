import { Context, type Effect } from "effect"

/** Small installation-wide values kept in the store (e.g. the URL signing key shared by every process). */
export class SettingsRepository extends Context.Tag("@mailroom/SettingsRepository")<SettingsRepository, {
  /** The stored value of `key`; stores `initial` first when there is none (the first writer wins). */
  readonly getOrInit: (key: string, initial: string) => Effect.Effect<string>
}>() {}
