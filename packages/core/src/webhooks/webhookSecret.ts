/** Bytes of a generated signing secret. */
const SECRET_BYTES = 24

/** A new signing secret in the Standard Webhooks form: `whsec_` and base64 of random bytes. */
export const newWebhookSecret = (): string => {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(SECRET_BYTES))
  return `whsec_${btoa(String.fromCharCode(...bytes))}`
}

/** Whether a given secret can sign: `whsec_` and base64 of 24 to 64 bytes. */
export const isWebhookSecret = (secret: string): boolean => {
  const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret)
  if (match === null) return false
  const bytes = Math.floor((match[1]!.length * 3) / 4) - (match[1]!.match(/=/g)?.length ?? 0)
  return bytes >= 24 && bytes <= 64
}
