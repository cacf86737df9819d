import { Page } from "../components/Page"
import { Link } from "../router"

/** The screen of an unknown admin path. */
export const NotFound = () => (
  <Page title="Not found">
    <p>
      There is nothing here. <Link href="/">Back to the dashboard</Link>.
    </p>
  </Page>
)
