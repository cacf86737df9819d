import type { MailStatistics } from "../api/types"
import { formatNumber, formatRate } from "../format"
import { Figure } from "./Figure"

/** The figures of a sent mail: recipients, opens, clicks, unsubscribes and bounces (the first labelled `sentLabel`). */
export const MailFigures = ({ mail, sentLabel }: { mail: MailStatistics; sentLabel: string }) => (
  <dl class="stats" aria-label="Figures">
    <Figure label={sentLabel} value={formatNumber(mail.sent_to_number_of_subscribers)} />
    <Figure label="Opens" value={`${formatNumber(mail.unique_open_count)} (${formatRate(mail.open_rate)})`} />
    <Figure label="Clicks" value={`${formatNumber(mail.unique_click_count)} (${formatRate(mail.click_rate)})`} />
    <Figure label="Unsubscribes" value={`${formatNumber(mail.unsubscribe_count)} (${formatRate(mail.unsubscribe_rate)})`} />
    <Figure label="Bounces" value={`${formatNumber(mail.bounce_count)} (${formatRate(mail.bounce_rate)})`} />
  </dl>
)
