import type { ImportRow, RejectedRow } from "./ImportRow.js"

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

const byEmail = (a: ImportRow, b: ImportRow) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0)

/**
 * One window's rows cut into batches in the order they are written, after the first `skip` of that order (written
 * before a restart). Sorted: refused rows first in CSV order, then valid rows by address, a repeated address's rows
 * in CSV order (the sort is stable), so each batch's new addresses fall in a narrow range of the list's address index
 * and its commit rewrites few of its pages. Unsorted: the CSV's order, `skip` 0.
 */
export const importWindowBatches = (
  rows: Array<ImportRow>,
  rejected: ReadonlyArray<RejectedRow>,
  sorted: boolean,
  skip: number,
  batchSize: number
): Array<ImportBatchRows> => {
  if (!sorted) return [{ rows, rejected }]
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
