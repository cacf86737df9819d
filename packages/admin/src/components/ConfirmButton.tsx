import type { ComponentChildren } from "preact"

/** A button that asks before it does something that cannot be undone (delete, send, unsubscribe). */
export const ConfirmButton = ({ question, onConfirm, children, danger = false, disabled = false }: {
  question: string
  onConfirm: () => void
  children: ComponentChildren
  danger?: boolean
  disabled?: boolean
}) => (
  <button type="button" class={danger ? "danger" : undefined} disabled={disabled} onClick={() => window.confirm(question) && onConfirm()}>
    {children}
  </button>
)
