import { useState } from "preact/hooks"
import type { Collection } from "../api/client"
import { formatNumber } from "../format"

/** Paging for a collection: previous, next, and a page number to jump to (deep pages of a million rows). */
export const Pager = ({ meta, onPage }: { meta: Collection<unknown>["meta"] | undefined; onPage: (page: number) => void }) => {
  const [jump, setJump] = useState("")
  if (meta === undefined || meta.total === 0) return null
  const { current_page: page, last_page: last } = meta
  return (
    <nav class="pager" aria-label="Pages">
      <span>
        {formatNumber(meta.from ?? 0)}–{formatNumber(meta.to ?? 0)} of {formatNumber(meta.total)}
      </span>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← Previous
      </button>
      <span aria-current="page">
        Page {formatNumber(page)} of {formatNumber(last)}
      </span>
      <button type="button" disabled={page >= last} onClick={() => onPage(page + 1)}>
        Next →
      </button>
      {last > 2 && (
        <form
          class="jump"
          onSubmit={(event) => {
            event.preventDefault()
            const target = Math.min(Math.max(1, Number.parseInt(jump, 10) || 1), last)
            setJump("")
            onPage(target)
          }}
        >
          <label>
            Go to page <input type="number" min={1} max={last} value={jump} onInput={(event) => setJump(event.currentTarget.value)} />
          </label>
          <button type="submit">Go</button>
        </form>
      )}
    </nav>
  )
}
