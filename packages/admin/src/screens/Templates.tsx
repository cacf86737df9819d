import { Page } from "../components/Page"
export const Templates = (_: Record<string, string>) => <Page title="Templates"><p>TODO</p></Page>
