/** The most bytes of CSV one request carries (the server takes bodies up to 10 MB; JSON escaping can double them). */
export const PART_BYTES = 2 * 1024 * 1024

/**
 * Reads a CSV file as text in parts of about `partBytes`, each ending at a line break, so that a file of any size is
 * sent in several requests (create, then append) without holding it whole in one request. Yields each part and the
 * bytes read so far.
 */
export async function* csvParts(file: Blob, partBytes = PART_BYTES): AsyncGenerator<{ text: string; bytesRead: number }> {
  const decoder = new TextDecoder()
  let pending = ""
  let offset = 0
  while (offset < file.size) {
    const slice = file.slice(offset, offset + partBytes)
    offset += slice.size
    pending += decoder.decode(new Uint8Array(await slice.arrayBuffer()), { stream: offset < file.size })
    const cut = pending.lastIndexOf("\n")
    if (offset < file.size && cut === -1) continue
    const text = offset < file.size ? pending.slice(0, cut + 1) : pending
    pending = offset < file.size ? pending.slice(cut + 1) : ""
    if (text !== "") yield { text, bytesRead: offset }
  }
  if (pending !== "") yield { text: pending, bytesRead: offset }
}
