/** The message cannot be written as valid MIME (a permanent problem of the message, not of the transport). */
export class MimeError extends Error {
  override readonly name = "MimeError"
}
