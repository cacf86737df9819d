import { Duration, Effect } from "effect"
import type { SendId } from "../domain/Ids.js"
import type { SendRepository } from "../ports/SendRepository.js"
import { now } from "./now.js"
import type { Outage } from "./Outage.js"

/**
 * How a delivery pump keeps the leases of the sends it holds: renewed every third of the lease (so a slow transport
 * never lets them run out), and given back when it stops before them; storage failures go to `storage`.
 */
export const sendLeases = <A extends { readonly send: { readonly id: SendId } }>(
  sends: SendRepository["Type"],
  options: { readonly owner: string; readonly leaseMillis: number; readonly storage: Outage }
) => {
  const ids = (items: ReadonlyArray<A>) => items.map((item) => item.send.id)
  return {
    renew: (items: ReadonlyArray<A>): Effect.Effect<void> =>
      Effect.flatMap(now, (at) =>
        sends.renew({ ids: ids(items), owner: options.owner, leaseUntil: new Date(at.getTime() + options.leaseMillis) })).pipe(
          Effect.asVoid,
          Effect.catchAllCause(options.storage.failed)
        ),
    renewEvery: Duration.millis(Math.max(50, options.leaseMillis / 3)),
    release: (items: ReadonlyArray<A>): Effect.Effect<void> =>
      sends.release({ ids: ids(items), owner: options.owner }).pipe(Effect.catchAllCause(options.storage.failed))
  }
}
