/** The transactional resources as the API sends them. */

/** A stored transactional template with the statistics of the mails sent from it. */
export interface TransactionalTemplate {
  readonly uuid: string
  readonly name: string
  readonly subject: string
  readonly html: string
  readonly text: string | null
  readonly type: "html" | "markdown"
  readonly to: ReadonlyArray<string> | null
  readonly cc: ReadonlyArray<string> | null
  readonly bcc: ReadonlyArray<string> | null
  readonly store_mail: boolean
  readonly track_opens: boolean
  readonly track_clicks: boolean
  readonly sent_count: number
  readonly open_count: number
  readonly unique_open_count: number
  readonly click_count: number
  readonly unique_click_count: number
  readonly bounce_count: number
  readonly created_at: string
  readonly updated_at: string
}

/** An address of a logged mail. */
export interface NamedAddress {
  readonly email: string
  readonly name: string | null
}

/** A transactional mail of the log. */
export interface TransactionalMail {
  readonly uuid: string
  readonly mail_name: string | null
  readonly subject: string
  readonly from: ReadonlyArray<NamedAddress>
  readonly to: ReadonlyArray<NamedAddress>
  readonly cc: ReadonlyArray<NamedAddress>
  readonly bcc: ReadonlyArray<NamedAddress>
  readonly reply_to: ReadonlyArray<NamedAddress>
  readonly html: string
  readonly text: string | null
  readonly fake: boolean
  readonly attachments: ReadonlyArray<string>
  readonly send_uuid: string | null
  readonly status: "pending" | "sent" | "failed"
  readonly failure_reason: string | null
  readonly transport_message_id: string | null
  readonly opens: number
  readonly clicks: number
  readonly track_opens: boolean
  readonly track_clicks: boolean
  readonly created_at: string
}

/** What `POST /transactional-mails/render` answers. */
export interface RenderedMail {
  readonly subject: string
  readonly html: string
  readonly text: string
}
