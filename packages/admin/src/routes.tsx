import type { ComponentChildren } from "preact"
import { match } from "./router"
import { AutomationMails } from "./screens/AutomationMails"
import { AutomationMailDetail } from "./screens/AutomationMailDetail"
import { AutomationDetail } from "./screens/AutomationDetail"
import { Automations } from "./screens/Automations"
import { CampaignDetail } from "./screens/CampaignDetail"
import { CampaignEditor } from "./screens/CampaignEditor"
import { Campaigns } from "./screens/Campaigns"
import { Dashboard } from "./screens/Dashboard"
import { ImportDetail, Imports } from "./screens/Imports"
import { ImportNew } from "./screens/ImportNew"
import { ListDetail } from "./screens/ListDetail"
import { Lists } from "./screens/Lists"
import { NotFound } from "./screens/NotFound"
import { Segments } from "./screens/Segments"
import { SubscriberDetail } from "./screens/SubscriberDetail"
import { Subscribers } from "./screens/Subscribers"
import { Suppressions } from "./screens/Suppressions"
import { Tags } from "./screens/Tags"
import { TemplateEditor } from "./screens/TemplateEditor"
import { Templates } from "./screens/Templates"
import { Tokens } from "./screens/Tokens"
import { Transactional } from "./screens/Transactional"
import { TransactionalMailDetail } from "./screens/TransactionalMailDetail"
import { TransactionalTemplateEditor } from "./screens/TransactionalTemplateEditor"
import { WebhookDetail } from "./screens/WebhookDetail"
import { Webhooks } from "./screens/Webhooks"

type Screen = (params: Record<string, string>) => ComponentChildren

const TABLE: ReadonlyArray<readonly [string, Screen]> = [
  ["/", () => <Dashboard />],
  ["/lists", () => <Lists />],
  ["/lists/:list", (p) => <ListDetail list={p.list!} />],
  ["/lists/:list/subscribers", (p) => <Subscribers list={p.list!} />],
  ["/lists/:list/tags", (p) => <Tags list={p.list!} />],
  ["/lists/:list/segments", (p) => <Segments list={p.list!} />],
  ["/subscribers/:subscriber", (p) => <SubscriberDetail subscriber={p.subscriber!} />],
  ["/templates", () => <Templates />],
  ["/templates/new", () => <TemplateEditor />],
  ["/templates/:template", (p) => <TemplateEditor template={p.template!} />],
  ["/campaigns", () => <Campaigns />],
  ["/campaigns/new", () => <CampaignEditor />],
  ["/campaigns/:campaign", (p) => <CampaignDetail campaign={p.campaign!} />],
  ["/campaigns/:campaign/edit", (p) => <CampaignEditor campaign={p.campaign!} />],
  ["/imports", () => <Imports />],
  ["/imports/new", () => <ImportNew />],
  ["/imports/:import", (p) => <ImportDetail id={p.import!} />],
  ["/suppressions", () => <Suppressions />],
  ["/transactional", () => <Transactional />],
  ["/transactional/templates/new", () => <TransactionalTemplateEditor />],
  ["/transactional/templates/:template", (p) => <TransactionalTemplateEditor template={p.template!} />],
  ["/transactional/mails/:mail", (p) => <TransactionalMailDetail mail={p.mail!} />],
  ["/automations", () => <Automations />],
  ["/automations/:automation", (p) => <AutomationDetail automation={p.automation!} />],
  ["/automation-mails", () => <AutomationMails />],
  ["/automation-mails/:mail", (p) => <AutomationMailDetail mail={p.mail!} />],
  ["/webhooks", () => <Webhooks />],
  ["/webhooks/:webhook", (p) => <WebhookDetail webhook={p.webhook!} />],
  ["/tokens", () => <Tokens />]
]

/** The screen of an admin path (the first pattern that matches), or the not-found screen. */
export const routes = (path: string): ComponentChildren => {
  for (const [pattern, screen] of TABLE) {
    const params = match(pattern, path)
    if (params !== null) return screen(params)
  }
  return <NotFound />
}
