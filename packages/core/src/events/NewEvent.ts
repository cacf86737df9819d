import type { EventType } from "./EventType.js"

/** An event to record: what happened, when, and the records it is about (ids of the store). */
export interface NewEvent {
  readonly type: EventType
  readonly occurredAt: Date
  readonly emailListId: number | null
  readonly subscriberId: number | null
  readonly campaignId: number | null
  readonly sendId: number | null
  /** The import, tag or transactional mail the event is about, by its kind. */
  readonly refId: number | null
  /** Facts that cannot be looked up later (a tag's name, a clicked url, a deleted subscriber). */
  readonly data: Readonly<Record<string, unknown>> | null
}

/** An event with no references yet filled in. */
export const newEvent = (type: EventType, occurredAt: Date, refs: Partial<Omit<NewEvent, "type" | "occurredAt">>): NewEvent => ({
  type,
  occurredAt,
  emailListId: refs.emailListId ?? null,
  subscriberId: refs.subscriberId ?? null,
  campaignId: refs.campaignId ?? null,
  sendId: refs.sendId ?? null,
  refId: refs.refId ?? null,
  data: refs.data ?? null
})
