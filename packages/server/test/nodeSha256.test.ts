/** Token hashing on the server's synchronous node:crypto path stores and finds the same hashes as Web Crypto's. */
import { describe, expect, it } from "@effect/vitest"
import { hashToken, Sha256 } from "@mailroom/core"
import { Effect } from "effect"
import { NodeSha256 } from "../src/nodeSha256.js"

describe("token hashing", () => {
  it.effect("node:crypto's SHA-256 gives Web Crypto's hex digest, for ASCII and non-ASCII secrets", () =>
    Effect.gen(function*() {
      const sha256 = yield* Sha256
      expect(sha256).not.toBeNull()
      for (const secret of ["mr_abc", "mr_" + "x".repeat(200), "jeton-été-✓"]) {
        expect(yield* hashToken(secret, sha256)).toBe(yield* hashToken(secret))
      }
      expect(yield* hashToken("abc", sha256)).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }).pipe(Effect.provide(NodeSha256)))
})
