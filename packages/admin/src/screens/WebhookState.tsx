import { Badge } from "../components/Page"
import type { Webhook } from "./webhookTypes"

/** A webhook's state as a badge: disabled, failing or enabled. */
export const WebhookState = ({ webhook }: { webhook: Webhook }) =>
  !webhook.enabled ? <Badge value="disabled" /> : webhook.failing_since ? <Badge value="failing" /> : <Badge value="enabled" />
