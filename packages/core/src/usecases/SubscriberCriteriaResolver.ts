import { Effect, Option } from "effect"
import type { SubscriberQuery } from "../domain/Collections.js"
import { normalizeEmail } from "../domain/Email.js"
import type { EmailList } from "../domain/EmailList.js"
import type { SegmentUuid } from "../domain/Ids.js"
import { segmentRule } from "../domain/SegmentRule.js"
import type { SubscriberCriteria } from "../domain/SubscriberCriteria.js"
import { SubscriberStatus } from "../domain/SubscriberStatus.js"
import { tagKey } from "../domain/Tag.js"
import { SegmentRepository } from "../ports/SegmentRepository.js"
import { TagRepository } from "../ports/TagRepository.js"
import { parseUuid } from "./lookup.js"

const isStatus = (value: string): value is SubscriberStatus => (SubscriberStatus.literals as ReadonlyArray<string>).includes(value)

/** Turns a subscriber list's filters into criteria: tag names/uuids and segment uuids resolved to the list's own. */
export class SubscriberCriteriaResolver extends Effect.Service<SubscriberCriteriaResolver>()(
  "@mailroom/SubscriberCriteriaResolver",
  {
    effect: Effect.gen(function*() {
      const tags = yield* TagRepository
      const segments = yield* SegmentRepository

      /**
       * The criteria, or none when they can match nobody (unknown tags or segment). Unknown status values and
       * empty filters are ignored; `filter[tagType]=all` requires every given tag, anything else any of them.
       */
      const resolve = Effect.fn("SubscriberCriteriaResolver.resolve")(function*(
        list: EmailList,
        filters: SubscriberQuery["filters"]
      ) {
        const criteria: { -readonly [K in keyof SubscriberCriteria]: SubscriberCriteria[K] } = { emailListId: list.id }
        const email = filters.email?.trim()
        if (email) criteria.email = normalizeEmail(email)
        const status = filters.status?.trim().toLowerCase()
        if (status !== undefined && isStatus(status)) criteria.status = status
        const search = filters.search?.trim()
        if (search) criteria.search = search
        const refs = (filters.tags ?? "").split(",").map((ref) => ref.trim()).filter((ref) => ref.length > 0)
        if (refs.length > 0) {
          const all = filters.tagType?.trim().toLowerCase() === "all"
          const found = yield* tags.findByRefs(list.id, refs)
          const matched = refs.filter((ref) =>
            found.some((tag) => tag.uuid === ref.toLowerCase() || tagKey(tag.name) === tagKey(ref))
          )
          if (found.length === 0 || (all && matched.length < refs.length)) return Option.none()
          criteria.tags = { ids: found.map((tag) => tag.id), all }
        }
        const segmentRef = filters.segment_uuid?.trim()
        if (segmentRef) {
          const uuid = parseUuid(segmentRef)
          const segment = Option.isNone(uuid) ? Option.none() : yield* segments.findByUuid(uuid.value as SegmentUuid)
          if (Option.isNone(segment) || segment.value.emailListId !== list.id) return Option.none()
          criteria.segment = segmentRule(segment.value)
        }
        return Option.some(criteria as SubscriberCriteria)
      })

      return { resolve } as const
    })
  }
) {}
