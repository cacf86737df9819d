import type { ComponentChildren } from "preact"
import { useId } from "preact/hooks"
import type { ApiError } from "../api/client"

/** The messages the server gave for one field of a 422 answer. */
export const fieldErrors = (error: ApiError | undefined, name: string): ReadonlyArray<string> =>
  error?.errors[name] ?? []

interface FieldProps {
  readonly label: string
  readonly name: string
  readonly error?: ApiError | undefined
  readonly hint?: string
  readonly children: (props: { id: string; name: string; "aria-invalid": boolean; "aria-describedby"?: string }) => ComponentChildren
}

/** A labelled form control with its hint and the server's errors for it (422), linked for screen readers. */
export const Field = ({ label, name, error, hint, children }: FieldProps) => {
  const id = `${name}-${useId()}`
  const messages = fieldErrors(error, name)
  const described = [hint ? `${id}-hint` : "", messages.length > 0 ? `${id}-error` : ""].filter(Boolean).join(" ")
  return (
    <div class={messages.length > 0 ? "field invalid" : "field"}>
      <label for={id}>{label}</label>
      {children({ id, name, "aria-invalid": messages.length > 0, ...(described ? { "aria-describedby": described } : {}) })}
      {hint && <small id={`${id}-hint`}>{hint}</small>}
      {messages.length > 0 && (
        <small class="field-error" id={`${id}-error`}>
          {messages.join(" ")}
        </small>
      )}
    </div>
  )
}

interface InputProps {
  readonly label: string
  readonly name: string
  readonly value: string
  readonly onValue: (value: string) => void
  readonly error?: ApiError | undefined
  readonly type?: string
  readonly hint?: string
  readonly required?: boolean
  readonly placeholder?: string
  readonly autoComplete?: string
}

/** A labelled text input. */
export const TextField = ({ label, name, value, onValue, error, type = "text", hint, required, placeholder, autoComplete }: InputProps) => (
  <Field label={label} name={name} error={error} hint={hint}>
    {(props) => (
      <input
        {...props}
        type={type}
        value={value}
        required={required}
        placeholder={placeholder}
        autoComplete={autoComplete}
        onInput={(event) => onValue(event.currentTarget.value)}
      />
    )}
  </Field>
)

/** A labelled multi-line input (HTML, CSV, JSON). */
export const TextArea = ({ label, name, value, onValue, error, hint, rows = 8, mono = false }: InputProps & { rows?: number; mono?: boolean }) => (
  <Field label={label} name={name} error={error} hint={hint}>
    {(props) => (
      <textarea {...props} rows={rows} class={mono ? "mono" : undefined} value={value} onInput={(event) => onValue(event.currentTarget.value)} />
    )}
  </Field>
)

/** A labelled select of options (value, label). */
export const SelectField = ({ label, name, value, onValue, error, hint, options }: Omit<InputProps, "type"> & { options: ReadonlyArray<readonly [string, string]> }) => (
  <Field label={label} name={name} error={error} hint={hint}>
    {(props) => (
      <select {...props} value={value} onChange={(event) => onValue(event.currentTarget.value)}>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    )}
  </Field>
)

/** A checkbox with its label after it. */
export const CheckField = ({ label, name, checked, onChecked, hint }: { label: string; name: string; checked: boolean; onChecked: (checked: boolean) => void; hint?: string }) => (
  <div class="field check">
    <label>
      <input type="checkbox" name={name} checked={checked} onChange={(event) => onChecked(event.currentTarget.checked)} /> {label}
    </label>
    {hint && <small>{hint}</small>}
  </div>
)
