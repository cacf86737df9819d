/**
 * Header values as RFC 5322 allows them: one logical line, printable ASCII as it is (folded at spaces when long),
 * anything else as RFC 2047 `=?UTF-8?B?…?=` encoded-words of at most 75 characters. Every line ends in CRLF and none
 * is longer than 998 octets; a value that cannot be written so throws a {@link MimeError}.
 */
import { MimeError } from "./MimeError.js"

/** The line break of every line written. */
export const CRLF = "\r\n"
/** The longest line allowed (RFC 5322 §2.1.1), without its CRLF. */
export const MAX_LINE = 998
/** The line length headers are folded at where their words allow (RFC 5322 §2.1.1). */
export const FOLD_AT = 78

/** Printable ASCII (spaces included), nothing else. */
export const PRINTABLE = /^[\x20-\x7e]*$/

/** Text a decoder would read as the start of an encoded-word: it must be encoded itself. */
export const ENCODED_WORD_LIKE = /=\?[^?]*\?[BbQq]\?/

/** Line breaks (with the whitespace around them) become one space: a header value is one logical line. */
export const oneLine = (value: string): string => (/[\r\n]/.test(value) ? value.replace(/\s*[\r\n]+\s*/g, " ") : value)

/** `Name: value` for an unstructured value: encoded-words when not printable ASCII, folded at spaces when long. */
export const unstructured = (name: string, value: string): string => {
  const flat = oneLine(value)
  // printable ASCII stays as it is, unless it would read as an encoded-word
  if (PRINTABLE.test(flat) && !ENCODED_WORD_LIKE.test(flat)) {
    const line = `${name}: ${flat}`
    if (line.length <= FOLD_AT) return line + CRLF
    const folded = fold(line)
    if (folded !== undefined) return folded
  }
  // non-ASCII, control characters, or a word too long to fold: encoded-words can be split anywhere
  if (name.length > 60) throw new MimeError(`The ${name} header cannot be written in lines of at most ${MAX_LINE} characters`)
  return `${name}: ${encodedWords(flat, name.length + 2)}${CRLF}`
}

/**
 * Folds a header line before spaces (never after the colon, never leaving a blank line) into lines of at most 78
 * characters where the words allow, ending in CRLF; undefined when a word keeps a line over 998 octets.
 */
const fold = (line: string): string | undefined => {
  const first = line.indexOf(": ") + 2
  let out = ""
  let start = 0
  while (line.length - start > FOLD_AT) {
    let at = -1
    for (let k = start + FOLD_AT; k > start && k > first; k--) {
      if (line.charCodeAt(k) === 0x20 && line.charCodeAt(k - 1) !== 0x20) {
        at = k
        break
      }
    }
    if (at < 0) {
      for (let k = Math.max(start + FOLD_AT + 1, first + 1); k < line.length; k++) {
        if (line.charCodeAt(k) === 0x20 && line.charCodeAt(k - 1) !== 0x20) {
          at = k
          break
        }
      }
      if (at < 0) break
    }
    if (at - start > MAX_LINE) return undefined
    out += line.slice(start, at) + CRLF
    start = at
  }
  if (line.length - start > MAX_LINE) return undefined
  return out + line.slice(start) + CRLF
}

const ENCODED_WORD_BYTES = 45 // 60 base64 characters: "=?UTF-8?B?" + 60 + "?=" is 72 ≤ 75

/**
 * RFC 2047 B encoded-words of the value, split between characters (never inside a UTF-8 sequence) and joined by
 * folding whitespace; `offset` is the length of what precedes the first word on its line, so that it ends by column 78.
 */
export const encodedWords = (value: string, offset = 0): string => {
  const words: Array<string> = []
  let limit = Math.max(3, Math.min(ENCODED_WORD_BYTES, Math.floor((FOLD_AT - offset - 12) / 4) * 3))
  let chunk = ""
  let bytes = 0
  for (const char of value) {
    const code = char.codePointAt(0)!
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
    if (bytes + size > limit && chunk !== "") {
      words.push(chunk)
      chunk = ""
      bytes = 0
      limit = ENCODED_WORD_BYTES
    }
    chunk += char
    bytes += size
  }
  if (chunk !== "" || words.length === 0) words.push(chunk)
  let out = ""
  for (const word of words) out += `${out === "" ? "" : `${CRLF} `}=?UTF-8?B?${Buffer.from(word, "utf8").toString("base64")}?=`
  return out
}
