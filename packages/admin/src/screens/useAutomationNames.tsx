import type { Collection } from "../api/client"
import type { AutomationMail, EmailList } from "../api/types"
import { useApi } from "../api/useApi"
import { Link } from "../router"
import type { Names } from "./automationText"

/** Names of the automation mails and the email lists, for the flow and the forms. */
export const useAutomationNames = () => {
  const mails = useApi<Collection<AutomationMail>>("/automation-mails?per_page=100")
  const lists = useApi<Collection<EmailList>>("/email-lists?per_page=100&sort=name")
  const names: Names = {
    mail: (uuid) => {
      const found = mails.data?.data.find((mail) => mail.uuid === uuid)
      return found ? <Link href={`/automation-mails/${found.uuid}`}>{found.name}</Link> : <span class="error-text">unknown mail {String(uuid)}</span>
    },
    list: (uuid) => lists.data?.data.find((list) => list.uuid === uuid)?.name ?? (uuid ? String(uuid) : "no list")
  }
  return { names, mails: mails.data?.data, lists: lists.data?.data, error: mails.error ?? lists.error }
}
