import { createHmac, createSecretKey, type KeyObject } from "node:crypto"
import { HmacSha256 } from "@mailroom/core"
import { Layer } from "effect"

const keys = new Map<string, KeyObject>()

/** Link signatures with node:crypto: synchronous, a few µs each (the key object is made once per key). */
export const NodeHmac = Layer.succeed(HmacSha256, (key: string, data: string) => {
  let secret = keys.get(key)
  if (secret === undefined) keys.set(key, (secret = createSecretKey(Buffer.from(key, "utf8"))))
  return createHmac("sha256", secret).update(data).digest()
})
