import { Schema } from "effect"
import { Flag, optionalNullable, required, RequiredText, TextList } from "./Fields.js"

/** Body of segment create and update (update replaces every condition). Tag lists hold names of the list's tags. */
export class SegmentInput extends Schema.Class<SegmentInput>("SegmentInput")({
  name: required("name", RequiredText("name")),
  positiveTags: optionalNullable("positive_tags", TextList("positive_tags")),
  negativeTags: optionalNullable("negative_tags", TextList("negative_tags")),
  allPositiveTagsRequired: optionalNullable("all_positive_tags_required", Flag("all_positive_tags_required")),
  allNegativeTagsRequired: optionalNullable("all_negative_tags_required", Flag("all_negative_tags_required"))
}) {}
