import { Schema } from "effect"
import { Ability } from "./ApiToken.js"
import { required, RequiredText } from "./Fields.js"

/** Body of POST /api/tokens: a non-empty name and at least one ability. */
export class TokenInput extends Schema.Class<TokenInput>("TokenInput")({
  name: required("name", RequiredText("name")),
  abilities: required(
    "abilities",
    Schema.Array(Ability.annotations({ message: () => "Each ability must be one of all, read, write, send." })).pipe(
      Schema.minItems(1, { message: () => "Give the token at least one ability." })
    ).annotations({ message: () => "The abilities field must be an array of all, read, write, send." })
  )
}) {}
