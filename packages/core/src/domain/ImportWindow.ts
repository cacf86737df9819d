import type { ImportRow, RejectedRow } from "./ImportRow.js"
import { tagKey } from "./Tag.js"

/** Data rows to write in one transaction: valid rows and refused ones. */
export interface ImportBatchRows {
  readonly rows: ReadonlyArray<ImportRow>
  readonly rejected: ReadonlyArray<RejectedRow>
}

/**
 * The window an import begins with for `target` rows: a whole number of batches (at least one), so that batches end
 * at the same rows whatever the window; 0 when `target` is 0 (rows written in the CSV's order).
 */
export const importWindowRows = (target: number, batchSize: number): number =>
  target <= 0 ? 0 : batchSize * Math.max(1, Math.floor(target / batchSize))

/** The order a window's addresses are written in (code units, as SQLite's and Postgres' "C" collation compare ASCII). */
export const compareAddresses = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const byEmail = (a: ImportRow, b: ImportRow) => compareAddresses(a.email, b.email)

/**
 * Gives every row of a window (in CSV order) the spelling of each tag that the window's first row naming it used, so
 * that a tag the import creates is spelled as in the CSV's first mention of it, whatever order the rows are written in.
 */
const firstSpellings = (rows: Array<ImportRow>) => {
  const spellings = new Map<string, string>()
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!
    let respelled: Array<string> | undefined
    for (let t = 0; t < row.tags.length; t++) {
      const tag = row.tags[t]!
      const key = tagKey(tag)
      const first = spellings.get(key)
      if (first === undefined) spellings.set(key, tag)
      else if (first !== tag) (respelled ??= [...row.tags])[t] = first
    }
    if (respelled !== undefined) rows[i] = { ...row, tags: respelled }
  }
}

/**
 * One window's rows cut into batches in the order they are written, after the first `skip` of that order (written
 * before a restart). Sorted: refused rows first in CSV order, then valid rows by address, a repeated address's rows
 * in CSV order (the sort is stable), so each batch's new addresses fall in a narrow range of the list's address index
 * and its commit rewrites few of its pages. Unsorted: the CSV's order, `skip` 0. A restart relies on this order being
 * the same for the same rows, so it must not change between versions while an import is under way.
 */
export const importWindowBatches = (
  rows: Array<ImportRow>,
  rejected: ReadonlyArray<RejectedRow>,
  sorted: boolean,
  skip: number,
  batchSize: number
): Array<ImportBatchRows> => {
  if (!sorted) return [{ rows, rejected }]
  firstSpellings(rows)
  rows.sort(byEmail)
  const batches: Array<ImportBatchRows> = []
  const total = rejected.length + rows.length
  for (let from = skip; from < total; from += batchSize) {
    const to = Math.min(total, from + batchSize)
    batches.push({
      rejected: rejected.slice(Math.min(from, rejected.length), Math.min(to, rejected.length)),
      rows: rows.slice(Math.max(0, from - rejected.length), Math.max(0, to - rejected.length))
    })
  }
  return batches
}
