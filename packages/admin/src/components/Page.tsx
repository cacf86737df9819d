import type { ComponentChildren } from "preact"
import { useEffect } from "preact/hooks"

/** A screen: its heading (also the document title), the actions beside it, and its content. */
export const Page = ({ title, actions, children, back }: { title: string; actions?: ComponentChildren; children: ComponentChildren; back?: ComponentChildren }) => {
  useEffect(() => {
    document.title = `${title} · Mailroom`
  }, [title])
  return (
    <section class="page" aria-labelledby="page-title">
      {back && <p class="back">{back}</p>}
      <header class="page-header">
        <h1 id="page-title" tabIndex={-1}>
          {title}
        </h1>
        {actions && <div class="actions">{actions}</div>}
      </header>
      {children}
    </section>
  )
}

/** A titled block within a screen. */
export const Panel = ({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) => (
  <section class="panel" aria-label={title}>
    <header class="panel-header">
      <h2>{title}</h2>
      {actions && <div class="actions">{actions}</div>}
    </header>
    {children}
  </section>
)

/** A state as a coloured label (campaign, subscriber, import, automation states). */
export const Badge = ({ value }: { value: string }) => <span class={`badge badge-${value.replace(/[^a-z_]/g, "")}`}>{value.replace(/_/g, " ")}</span>
