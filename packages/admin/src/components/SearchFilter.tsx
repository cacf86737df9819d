import { setSearchParams } from "../router"

/** The search box of a list screen, kept in the search parameter `search`, back to page 1 on each change. */
export const SearchFilter = ({ value, placeholder }: { value: string; placeholder?: string }) => (
  <label>
    Search <input type="search" value={value} placeholder={placeholder} onInput={(event) => setSearchParams({ search: event.currentTarget.value, page: null })} />
  </label>
)
