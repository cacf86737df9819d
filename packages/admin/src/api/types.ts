/** The resources the admin shows, as the API sends them (only the fields the screens use). */

export interface EmailList {
  readonly uuid: string
  readonly id: number
  readonly name: string
  readonly active_subscribers_count: number
  readonly default_from_email: string | null
  readonly default_from_name: string | null
  readonly default_reply_to_email: string | null
  readonly requires_confirmation: boolean
  readonly created_at: string
}

export interface Subscriber {
  readonly uuid: string
  readonly email_list_uuid: string
  readonly email: string
  readonly first_name: string | null
  readonly last_name: string | null
  readonly extra_attributes: Record<string, unknown> | []
  readonly tags: ReadonlyArray<string>
  readonly subscribed_at: string | null
  readonly unsubscribed_at: string | null
  readonly created_at: string
}

export interface Tag {
  readonly uuid: string
  readonly name: string
  readonly type: string
  readonly subscriber_count: number
  readonly visible_in_preferences: boolean
}

export interface Segment {
  readonly uuid: string
  readonly name: string
  readonly positive_tags: ReadonlyArray<string>
  readonly negative_tags: ReadonlyArray<string>
  readonly all_positive_tags_required: boolean
  readonly all_negative_tags_required: boolean
}

export interface Template {
  readonly uuid: string
  readonly id: number
  readonly name: string
  readonly html: string
  readonly fields: ReadonlyArray<{ name: string; type: string }>
  readonly updated_at: string
}

/** The statistics a sent mail carries, campaign-shaped (counts as strings, rates in basis points). */
export interface MailStatistics {
  readonly sent_to_number_of_subscribers: string
  readonly open_count: string
  readonly unique_open_count: string
  readonly open_rate: number
  readonly click_count: string
  readonly unique_click_count: string
  readonly click_rate: number
  readonly unsubscribe_count: string
  readonly unsubscribe_rate: string
  readonly bounce_count: string
  readonly bounce_rate: string
}

export interface Campaign extends MailStatistics {
  readonly uuid: string
  readonly name: string
  readonly email_list_uuid: string
  readonly template_uuid: string | null
  readonly segment_uuid: string | null
  readonly from_email: string | null
  readonly from_name: string | null
  readonly subject: string | null
  readonly status: string
  readonly html: string | null
  readonly fields: Record<string, string> | []
  readonly utm_tags: boolean
  readonly track_opens: boolean
  readonly track_clicks: boolean
  readonly segment_description: string
  readonly sent_at: string | null
  readonly scheduled_at: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** A mail that automations send, with statistics shaped like a campaign's. */
export interface AutomationMail extends MailStatistics {
  readonly uuid: string
  readonly name: string
  readonly subject: string | null
  readonly from_email: string | null
  readonly from_name: string | null
  readonly reply_to_email: string | null
  readonly html: string | null
  readonly template_uuid: string | null
  readonly fields: Record<string, string>
  readonly email_html: string | null
  readonly webview_html: string | null
  readonly utm_tags: boolean
  readonly add_subscriber_tags: boolean
  readonly add_subscriber_link_tags: boolean
  readonly track_opens: boolean
  readonly track_clicks: boolean
  readonly created_at: string
  readonly updated_at: string
}

export interface Send {
  readonly uuid: string
  readonly campaign_uuid: string | null
  readonly automation_mail_uuid: string | null
  readonly transactional_mail_log_item_uuid: string | null
  readonly subscriber_uuid: string | null
  readonly status?: string
  readonly sent_at: string | null
  readonly failed_at: string | null
  readonly failure_reason: string | null
  readonly open_count: number | null
  readonly click_count: number | null
  readonly created_at: string
}

export interface SubscriberImport {
  readonly id: number
  readonly uuid: string
  readonly status: string
  readonly email_list_id: number
  readonly email_list_uuid?: string
  readonly subscribe_unsubscribed: boolean
  readonly unsubscribe_others: boolean
  readonly imported_subscribers_count: number | null
  readonly error_count: number
  readonly created_at?: string
  readonly [key: string]: unknown
}
