import { Page } from "../components/Page"
export const Webhooks = (_: Record<string, string>) => <Page title="Webhooks"><p>TODO</p></Page>
export const WebhookDetail = (_: Record<string, string>) => <Page title="WebhookDetail"><p>TODO</p></Page>
