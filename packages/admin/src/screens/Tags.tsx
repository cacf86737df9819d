import { Page } from "../components/Page"
export const Tags = (_: Record<string, string>) => <Page title="Tags"><p>TODO</p></Page>
