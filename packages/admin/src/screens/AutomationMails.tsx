import { Page } from "../components/Page"
export const AutomationMails = (_: Record<string, string>) => <Page title="AutomationMails"><p>TODO</p></Page>
export const AutomationMailDetail = (_: Record<string, string>) => <Page title="AutomationMailDetail"><p>TODO</p></Page>
