import { SqlClient, SqlSchema } from "@effect/sql"
import { Template, TemplateId, TemplateRepository, TemplateUuid } from "@mailroom/core"
import { Effect, Layer, Schema } from "effect"
import { deleteById } from "../deleteById.js"
import { withNameKey } from "../nameKey.js"
import { containsPattern, selectPage } from "../selectPage.js"

const TemplateRow = Schema.Struct({ ...Template.fields })

/** TemplateRepository over SqlClient. */
export const SqlTemplateRepository = Layer.effect(
  TemplateRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const insert = SqlSchema.single({
      Request: TemplateRow.omit("id"),
      Result: Template,
      execute: (row) => sql`INSERT INTO templates ${sql.insert(withNameKey(row))} RETURNING *`
    })
    const update = SqlSchema.findOne({
      Request: Schema.Struct({ id: TemplateId, row: TemplateRow.pick("name", "html", "structuredHtml", "updatedAt") }),
      Result: Template,
      execute: ({ id, row }) => sql`UPDATE templates SET ${sql.update(withNameKey(row))} WHERE id = ${id} RETURNING *`
    })
    const findById = SqlSchema.findOne({
      Request: TemplateId,
      Result: Template,
      execute: (id) => sql`SELECT * FROM templates WHERE id = ${id}`
    })
    const findByUuid = SqlSchema.findOne({
      Request: TemplateUuid,
      Result: Template,
      execute: (uuid) => sql`SELECT * FROM templates WHERE uuid = ${uuid}`
    })
    return TemplateRepository.of({
      insert: (template) => insert(template).pipe(Effect.orDie),
      update: (id, changes) => update({ id, row: changes }).pipe(Effect.orDie),
      findById: (id) => findById(id).pipe(Effect.orDie),
      findByUuid: (uuid) => findByUuid(uuid).pipe(Effect.orDie),
      delete: (id) => deleteById(sql, "templates", id),
      list: (query) =>
        selectPage(sql, {
          table: "templates",
          sorts: { name: "name_key", updated_at: "updated_at" },
          filters: { search: (value) => sql`name_key LIKE ${containsPattern(value)} ESCAPE '\\'` }
        }, query, Template)
    })
  })
)
