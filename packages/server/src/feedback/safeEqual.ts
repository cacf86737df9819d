import { createHash, timingSafeEqual } from "node:crypto"

/** Compares two secrets in time independent of where they differ (their SHA-256 digests, so lengths may differ). */
export const safeEqual = (given: string, expected: string): boolean =>
  timingSafeEqual(createHash("sha256").update(given).digest(), createHash("sha256").update(expected).digest())
