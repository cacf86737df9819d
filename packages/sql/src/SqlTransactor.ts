import { SqlClient, SqlError } from "@effect/sql"
import { Transactor } from "@mailroom/core"
import { Effect, Layer } from "effect"

/** Transactor over SqlClient: a database transaction (nested calls become savepoints). */
export const SqlTransactor = Layer.effect(
  Transactor,
  Effect.map(SqlClient.SqlClient, (sql) =>
    Transactor.of({
      withTransaction: (self) =>
        sql.withTransaction(self).pipe(
          Effect.catchIf((error): error is SqlError.SqlError => error instanceof SqlError.SqlError, Effect.die)
        )
    }))
)
