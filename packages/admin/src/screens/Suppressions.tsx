import { Page } from "../components/Page"
export const Suppressions = (_: Record<string, string>) => <Page title="Suppressions"><p>TODO</p></Page>
