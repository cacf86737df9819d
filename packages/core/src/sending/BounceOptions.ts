import { Context } from "effect"

/** Settings of the one bounce policy. */
export class BounceOptions extends Context.Reference<BounceOptions>()("@mailroom/BounceOptions", {
  defaultValue: () => ({
    /** Soft bounces in a row (no delivery between them) after which an address is suppressed (`SOFT_BOUNCE_LIMIT`). */
    softBounceLimit: 3
  })
}) {}
