import { Page } from "../components/Page"
export const Automations = (_: Record<string, string>) => <Page title="Automations"><p>TODO</p></Page>
export const AutomationDetail = (_: Record<string, string>) => <Page title="AutomationDetail"><p>TODO</p></Page>
