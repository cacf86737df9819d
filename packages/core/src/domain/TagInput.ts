import { Schema } from "effect"
import { Flag, optionalNullable, required, RequiredText } from "./Fields.js"

/** Body of tag create and update (update is a full replace: an absent `visible_in_preferences` is false). */
export class TagInput extends Schema.Class<TagInput>("TagInput")({
  name: required("name", RequiredText("name")),
  visibleInPreferences: optionalNullable("visible_in_preferences", Flag("visible_in_preferences"))
}) {}
