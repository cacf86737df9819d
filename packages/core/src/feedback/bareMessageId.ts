/** A Message-ID without surrounding whitespace and angle brackets: `<id@host>` and `id@host` compare equal. */
export const bareMessageId = (messageId: string): string => messageId.trim().replace(/^<(.*)>$/, "$1").trim()
