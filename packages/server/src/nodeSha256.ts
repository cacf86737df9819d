import { createHash } from "node:crypto"
import { Sha256 } from "@mailroom/core"
import { Layer } from "effect"

/** Token hashing with node:crypto: synchronous, about a microsecond per token. */
export const NodeSha256 = Layer.succeed(Sha256, (data: string) => createHash("sha256").update(data, "utf8").digest("hex"))
