import { api } from "../api/client"
import { useCan } from "../api/session"
import type { AutomationMail } from "../api/types"
import { useAction, useApi } from "../api/useApi"
import { ConfirmButton } from "../components/ConfirmButton"
import { ErrorMessage } from "../components/ErrorMessage"
import { LinksTable } from "../components/LinksTable"
import { MailFigures } from "../components/MailFigures"
import { OpensTable } from "../components/OpensTable"
import { Page } from "../components/Page"
import { TestSendForm } from "../components/TestSendForm"
import { Link, navigate } from "../router"
import { AutomationMailForm } from "./AutomationMailForm"

/** One automation mail: its figures, its content and settings, a test send, and who opened it and what was clicked. */
export const AutomationMailDetail = ({ mail }: { mail: string }) => {
  const loaded = useApi<{ data: AutomationMail }>(`/automation-mails/${mail}`, 30_000)
  const canWrite = useCan("write")
  const canSend = useCan("send")
  const action = useAction()
  const data = loaded.data?.data
  return (
    <Page
      title={data?.name ?? "Automation mail"}
      back={<Link href="/automation-mails">← Automation mails</Link>}
      actions={
        canWrite &&
        data && (
          <ConfirmButton danger question={`Delete the automation mail "${data.name}" and its statistics?`} onConfirm={() => action.run(() => api.delete(`/automation-mails/${mail}`)).then((ok) => ok && navigate("/automation-mails"))}>
            Delete
          </ConfirmButton>
        )
      }
    >
      <ErrorMessage error={loaded.error} />
      {action.error?.status === 409 ? (
        <div class="error" role="alert">
          <p>
            <strong>Not deleted: a started automation still sends this mail.</strong> {action.error.message}
          </p>
          <p>
            See the <Link href="/automations?status=started">started automations</Link>.
          </p>
        </div>
      ) : (
        <ErrorMessage error={action.error} />
      )}
      {data && (
        <>
          <MailFigures mail={data} sentLabel="Sent" />
          {canSend && <TestSendForm path={`/automation-mails/${mail}/send-test`} hint="Up to 10 addresses, comma-separated. The saved version is sent." />}
          <AutomationMailForm key={data.uuid} mail={data} editable={canWrite} onSaved={loaded.reload} />
        </>
      )}
      <OpensTable path={`/automation-mails/${mail}/opens`} pageParam="opens" every={30_000} detailed />
      <LinksTable path={`/automation-mails/${mail}/clicks`} pageParam="links" every={30_000} empty="No tracked links yet." />
    </Page>
  )
}
