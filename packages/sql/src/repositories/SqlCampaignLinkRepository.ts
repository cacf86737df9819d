import { SqlClient } from "@effect/sql"
import { type CampaignLink, CampaignLinkRepository } from "@mailroom/core"
import { Effect, Layer, Option } from "effect"

/** CampaignLinkRepository over SqlClient. */
export const SqlCampaignLinkRepository = Layer.effect(
  CampaignLinkRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    CampaignLinkRepository.of({
      ensure: (campaignId, urls) =>
        urls.length === 0 ? Effect.succeed([]) : Effect.gen(function*() {
          yield* sql`INSERT INTO campaign_links ${sql.insert(urls.map((url) => ({ campaignId, url })))} ON CONFLICT DO NOTHING`
          return yield* sql<CampaignLink>`SELECT * FROM campaign_links WHERE campaign_id = ${campaignId} AND url IN ${sql.in(urls)}`
        }).pipe(Effect.orDie),
      findById: (id) =>
        sql<CampaignLink>`SELECT * FROM campaign_links WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        )
    }))
)
