import { Page } from "../components/Page"
export const Tokens = (_: Record<string, string>) => <Page title="Tokens"><p>TODO</p></Page>
