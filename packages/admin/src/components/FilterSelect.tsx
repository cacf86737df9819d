import { setSearchParams } from "../router"

/** A filter of a list screen: a select of `values` (and "all") kept in the search parameter `param`, back to page 1 on change. */
export const FilterSelect = ({ label, param, value, values }: { label: string; param: string; value: string; values: ReadonlyArray<string> }) => (
  <label>
    {label}{" "}
    <select value={value} onChange={(event) => setSearchParams({ [param]: event.currentTarget.value, page: null })}>
      <option value="">all</option>
      {values.map((option) => (
        <option key={option} value={option}>
          {option}
        </option>
      ))}
    </select>
  </label>
)
