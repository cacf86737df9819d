/** The columns an import writes for every subscriber it touches, in the order its values are written. */
export const IMPORTED_COLUMNS = [
  "first_name",
  "last_name",
  "extra_attributes",
  "search_key",
  "status",
  "subscribed_at",
  "unsubscribed_at",
  "updated_at",
  "last_import_id"
] as const

/** The columns of a subscriber an import creates, in the order its values are written (IMPORTED_COLUMNS last). */
export const NEW_SUBSCRIBER_COLUMNS = ["uuid", "email_list_id", "email", "created_at", ...IMPORTED_COLUMNS] as const
