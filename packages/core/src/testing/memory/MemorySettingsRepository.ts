import { Effect } from "effect"
import { SettingsRepository } from "../../ports/SettingsRepository.js"
import type { MemoryState } from "./MemoryState.js"

/** SettingsRepository over the in-memory state. */
export const makeMemorySettingsRepository = (state: MemoryState) =>
  SettingsRepository.of({
    getOrInit: (key, initial) =>
      Effect.sync(() => {
        const existing = [...state.tables.settings.values()].find((row) => row.key === key)
        if (existing !== undefined) return existing.value
        state.tables.settings.set(state.nextId("settings"), { key, value: initial })
        return initial
      })
  })
