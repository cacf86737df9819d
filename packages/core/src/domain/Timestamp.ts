import { Schema } from "effect"

/**
 * A point in time: a `Date` in code, an ISO-8601 UTC string (`2026-11-22T10:00:00.000Z`) when encoded.
 * The encoded form has a fixed width, so it sorts chronologically as text in every store.
 */
export const Timestamp = Schema.Date

/** Formats a time as the API's timestamp shape `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC, six fractional digits). */
export const formatTimestamp = (date: Date): string => `${date.toISOString().slice(0, 23)}000Z`
