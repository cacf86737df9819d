import type { ComponentChildren } from "preact"

/** A column: its heading and how a row shows in it. */
export interface Column<A> {
  readonly title: string
  readonly cell: (row: A) => ComponentChildren
  readonly numeric?: boolean
  /** Hidden on narrow screens (the row stays readable at 390 px). */
  readonly wide?: boolean
}

/** The classes of a column's cells: right-aligned numbers, columns hidden on narrow screens. */
const cellClass = (column: Column<never>): string | undefined =>
  [column.numeric ? "num" : "", column.wide ? "wide" : ""].join(" ").trim() || undefined

/** A table of rows with a caption for screen readers and a message when there are none. */
export const DataTable = <A,>({ caption, columns, rows, empty, rowKey }: {
  caption: string
  columns: ReadonlyArray<Column<A>>
  rows: ReadonlyArray<A> | undefined
  empty: ComponentChildren
  rowKey: (row: A) => string
}) => {
  if (rows === undefined) return <p class="muted" aria-busy="true">Loading…</p>
  if (rows.length === 0) return <p class="empty">{empty}</p>
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" class={cellClass(column)}>
                {column.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td class={cellClass(column)}>{column.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
