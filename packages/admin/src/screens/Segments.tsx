import { Page } from "../components/Page"
export const Segments = (_: Record<string, string>) => <Page title="Segments"><p>TODO</p></Page>
