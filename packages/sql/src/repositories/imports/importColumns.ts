import type { InsertValue } from "../../valuesInsert.js"
import type { ImportedSubscriberColumns, NewSubscriberColumns } from "./ImportBulkWrites.js"

/** The columns an import writes for every subscriber it touches, in the order of `importedValues`. */
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

/** The columns of a subscriber an import creates, in the order of `newSubscriberValues`. */
export const NEW_SUBSCRIBER_COLUMNS = ["uuid", "email_list_id", "email", "created_at", ...IMPORTED_COLUMNS] as const

/** The values of IMPORTED_COLUMNS. */
export const importedValues = (c: ImportedSubscriberColumns): Array<InsertValue> => [
  c.firstName,
  c.lastName,
  c.extraAttributes,
  c.searchKey,
  c.status,
  c.subscribedAt,
  c.unsubscribedAt,
  c.updatedAt,
  c.lastImportId
]

/** Writes the values of NEW_SUBSCRIBER_COLUMNS into `into` from `at`; the index after them. */
export const writeNewSubscriberValues = (c: NewSubscriberColumns, into: Array<InsertValue>, at: number): number => {
  into[at] = c.uuid
  into[at + 1] = c.emailListId
  into[at + 2] = c.email
  into[at + 3] = c.createdAt
  into[at + 4] = c.firstName
  into[at + 5] = c.lastName
  into[at + 6] = c.extraAttributes
  into[at + 7] = c.searchKey
  into[at + 8] = c.status
  into[at + 9] = c.subscribedAt
  into[at + 10] = c.unsubscribedAt
  into[at + 11] = c.updatedAt
  into[at + 12] = c.lastImportId
  return at + 13
}

/** The values of NEW_SUBSCRIBER_COLUMNS. */
export const newSubscriberValues = (c: NewSubscriberColumns): Array<InsertValue> => [
  c.uuid,
  c.emailListId,
  c.email,
  c.createdAt,
  ...importedValues(c)
]
