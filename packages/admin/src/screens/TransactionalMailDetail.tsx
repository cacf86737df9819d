import { useEffect, useState } from "preact/hooks"
import { api } from "../api/client"
import { useCan } from "../api/session"
import { useAction, useApi } from "../api/useApi"
import { ConfirmButton } from "../components/ConfirmButton"
import { ErrorMessage } from "../components/ErrorMessage"
import { Figure } from "../components/Figure"
import { Badge, Page, Panel } from "../components/Page"
import { formatDate, formatNumber } from "../format"
import { Link } from "../router"
import type { NamedAddress, TransactionalMail } from "./transactionalTypes"

const addresses = (list: ReadonlyArray<NamedAddress>): string =>
  list.length === 0 ? "–" : list.map((address) => (address.name ? `${address.name} <${address.email}>` : address.email)).join(", ")

/** One logged transactional mail: its addresses, state, opens and clicks, its content, and a resend. */
export const TransactionalMailDetail = ({ mail }: { mail: string }) => {
  const [pending, setPending] = useState(false)
  const loaded = useApi<{ data: TransactionalMail }>(`/transactional-mails/${mail}`, pending ? 3000 : 30_000)
  const canWrite = useCan("write")
  const action = useAction()
  const [resent, setResent] = useState(false)
  const data = loaded.data?.data
  useEffect(() => setPending(data?.status === "pending"), [data?.status])
  const resend = () => {
    setResent(false)
    void action.run(() => api.post(`/transactional-mails/${mail}/resend`)).then((ok) => {
      if (!ok) return
      setResent(true)
      loaded.reload()
    })
  }
  return (
    <Page
      title={data?.subject || "Transactional mail"}
      back={<Link href="/transactional">← Transactional mails</Link>}
      actions={
        canWrite &&
        data &&
        !data.fake && (
          <ConfirmButton question={`Send this mail again to ${addresses([...data.to, ...data.cc, ...data.bcc])}?`} onConfirm={resend} disabled={action.busy}>
            Resend
          </ConfirmButton>
        )
      }
    >
      <ErrorMessage error={loaded.error} />
      {action.error?.status === 406 ? (
        <div class="error" role="alert">
          <p>
            <strong>Not resent.</strong> {action.error.message}
          </p>
          <p>
            Remove the address from the <Link href="/suppressions">suppressions</Link> to send to it again.
          </p>
        </div>
      ) : (
        <ErrorMessage error={action.error} />
      )}
      {resent && <p role="status">The mail is queued to be sent again.</p>}
      {data && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <Badge value={data.status} />
              {data.fake && (
                <>
                  {" "}
                  <Badge value="fake" /> <span class="muted">logged only, never sent</span>
                </>
              )}
            </dd>
            {data.failure_reason && (
              <>
                <dt>Failure</dt>
                <dd class="error-text">{data.failure_reason}</dd>
              </>
            )}
            <dt>Template</dt>
            <dd>{data.mail_name ?? "Inline content"}</dd>
            <dt>From</dt>
            <dd class="url">{addresses(data.from)}</dd>
            <dt>To</dt>
            <dd class="url">{addresses(data.to)}</dd>
            {data.cc.length > 0 && (
              <>
                <dt>Cc</dt>
                <dd class="url">{addresses(data.cc)}</dd>
              </>
            )}
            {data.bcc.length > 0 && (
              <>
                <dt>Bcc</dt>
                <dd class="url">{addresses(data.bcc)}</dd>
              </>
            )}
            {data.reply_to.length > 0 && (
              <>
                <dt>Reply to</dt>
                <dd class="url">{addresses(data.reply_to)}</dd>
              </>
            )}
            <dt>Created</dt>
            <dd>{formatDate(data.created_at)}</dd>
            {data.attachments.length > 0 && (
              <>
                <dt>Attachments</dt>
                <dd>{data.attachments.join(", ")}</dd>
              </>
            )}
            <dt>Message id</dt>
            <dd class="url">
              <code>{data.transport_message_id ?? "–"}</code>
            </dd>
          </dl>
          <dl class="stats" aria-label="Figures">
            <Figure label="Opens" value={data.track_opens ? formatNumber(data.opens) : "not tracked"} />
            <Figure label="Clicks" value={data.track_clicks ? formatNumber(data.clicks) : "not tracked"} />
          </dl>
          <Panel title="Content">
            <iframe title="The mail as sent" sandbox="" srcdoc={data.html} class="preview-frame" />
            {data.text !== null && (
              <details class="transactional-text">
                <summary>Text version</summary>
                <pre>{data.text}</pre>
              </details>
            )}
          </Panel>
        </>
      )}
    </Page>
  )
}
