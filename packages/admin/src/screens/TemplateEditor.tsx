import { Page } from "../components/Page"
export const TemplateEditor = (_: Record<string, string>) => <Page title="TemplateEditor"><p>TODO</p></Page>
