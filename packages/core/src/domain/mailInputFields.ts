import { Schema } from "effect"
import { Flag, MAX_HTML, optionalNullable } from "./Fields.js"

/** The `fields` of a campaign-shaped mail's body: its template's slot values, at most MAX_HTML characters in all. */
export const TemplateFieldValues = Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
  message: () => "The fields field must be an object of strings."
}).pipe(Schema.filter((fields) => Object.values(fields).reduce((n, value) => n + value.length, 0) <= MAX_HTML, {
  message: () => `The fields may hold at most ${MAX_HTML} characters in all.`
}))

/** The tracking and tagging switches of a campaign-shaped mail's body (a campaign, an automation mail). */
export const mailSwitchFields = {
  utmTags: optionalNullable("utm_tags", Flag("utm_tags")),
  trackOpens: optionalNullable("track_opens", Flag("track_opens")),
  trackClicks: optionalNullable("track_clicks", Flag("track_clicks")),
  addSubscriberTags: optionalNullable("add_subscriber_tags", Flag("add_subscriber_tags")),
  addSubscriberLinkTags: optionalNullable("add_subscriber_link_tags", Flag("add_subscriber_link_tags"))
}
