import type { TagId } from "./Ids.js"
import type { Segment } from "./Segment.js"

/** The tag conditions of a segment, by tag id. Empty tag lists are no condition. */
export interface SegmentRule {
  readonly positive: ReadonlyArray<TagId>
  readonly negative: ReadonlyArray<TagId>
  readonly allPositive: boolean
  readonly allNegative: boolean
}

/** The rule a segment stands for. */
export const segmentRule = (segment: Segment): SegmentRule => ({
  positive: segment.positiveTags.map((tag) => tag.id),
  negative: segment.negativeTags.map((tag) => tag.id),
  allPositive: segment.allPositiveTagsRequired,
  allNegative: segment.allNegativeTagsRequired
})

/**
 * Whether a subscriber carrying `tags` matches the rule: positive tags, any (or all when required);
 * negative tags, none of them (or, when all are required, not every one of them).
 */
export const matchesSegmentRule = (rule: SegmentRule, tags: ReadonlySet<number>): boolean => {
  const positiveHits = rule.positive.filter((id) => tags.has(id)).length
  const negativeHits = rule.negative.filter((id) => tags.has(id)).length
  const positiveOk = rule.positive.length === 0 ||
    (rule.allPositive ? positiveHits === rule.positive.length : positiveHits > 0)
  const negativeOk = rule.negative.length === 0 ||
    (rule.allNegative ? negativeHits < rule.negative.length : negativeHits === 0)
  return positiveOk && negativeOk
}
