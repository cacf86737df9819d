import { Clock, Effect } from "effect"
import type { EmailList } from "../domain/EmailList.js"
import type { NotFound } from "../errors/NotFound.js"
import { EmailListRepository } from "../ports/EmailListRepository.js"
import { findByRef } from "./lookup.js"
import { recentlyFound } from "./recentlyFound.js"

/**
 * How long (ms) a list found by its reference serves sign-ups and subscriber pages without asking the store again: a
 * change or deletion through this process applies at once, one made through another process (another API server on
 * the same database) within this time.
 */
export const LIST_RECHECK_MS = 250

/** Most lists remembered at once. */
const MOST_REMEMBERED = 1_000

/**
 * Email lists found by their reference (uuid or integer id) within the last LIST_RECHECK_MS, for the requests that
 * need only a list's id, uuid and confirmation setting: a sign-up looked its list up on every request, a tenth of its
 * CPU on SQLite and a fifth to a quarter on Postgres (bench/HISTORY.md). EmailLists forgets them all after a change or deletion.
 */
export class RecentLists extends Effect.Service<RecentLists>()("@mailroom/RecentLists", {
  effect: Effect.gen(function*() {
    const repo = yield* EmailListRepository
    const recent = recentlyFound<EmailList>(LIST_RECHECK_MS, MOST_REMEMBERED)

    /** The list with this reference, remembered or looked up; NotFound when there is none. */
    const find = (ref: string): Effect.Effect<EmailList, NotFound> =>
      Effect.flatMap(Clock.currentTimeMillis, (at) => {
        const known = recent.get(ref, at)
        if (known !== undefined) return Effect.succeed(known)
        const since = recent.generation()
        return Effect.tap(findByRef("Email list", ref, repo.findByUuid, repo.findById), (list) => {
          recent.remember(ref, list, at, since)
        })
      })

    /** Runs a change of a list, then forgets every list remembered, even if the change fails or is interrupted. */
    const changing = recent.changing

    return { find, changing } as const
  })
}) {}
