import { Page } from "../components/Page"
export const Transactional = (_: Record<string, string>) => <Page title="Transactional"><p>TODO</p></Page>
export const TransactionalMailDetail = (_: Record<string, string>) => <Page title="TransactionalMailDetail"><p>TODO</p></Page>
export const TransactionalTemplateEditor = (_: Record<string, string>) => <Page title="TransactionalTemplateEditor"><p>TODO</p></Page>
