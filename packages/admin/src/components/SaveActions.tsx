import type { ComponentChildren } from "preact"

/** A form's submit button ("Save" unless told) with "Saved." beside it once saved, and any notes after them. */
export const SaveActions = ({ busy, saved, label = "Save", disabled = false, children }: {
  busy: boolean
  saved: boolean
  label?: string
  disabled?: boolean
  children?: ComponentChildren
}) => (
  <div class="form-actions">
    <button type="submit" class="primary" disabled={busy || disabled}>
      {label}
    </button>
    {saved && <span role="status">Saved.</span>}
    {children}
  </div>
)
