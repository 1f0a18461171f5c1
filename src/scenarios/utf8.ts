import { isUtf8 } from 'node:buffer'

// A dataset file must be UTF-8. Decoding it leniently would turn every bad byte into U+FFFD and change
// what the author wrote without a word, so the loader refuses it and names the first bad byte.

/** Byte offset of the first byte that does not start a valid UTF-8 sequence, or null when all are valid. */
export function invalidUtf8Offset(bytes: Uint8Array): number | null {
  if (isUtf8(bytes)) return null // the fast path, native
  let at = 0
  while (at < bytes.length) {
    const length = sequenceLength(bytes, at)
    if (length === 0) return at
    at += length
  }
  return null
}

/** The length of the valid UTF-8 sequence starting at `at` (RFC 3629: shortest form, no surrogates), or 0. */
function sequenceLength(bytes: Uint8Array, at: number): number {
  const lead = bytes[at] as number
  if (lead < 0x80) return 1
  // [length, lowest and highest allowed second byte]; the ranges exclude overlong forms and surrogates.
  let rule: [number, number, number]
  if (lead >= 0xc2 && lead <= 0xdf) rule = [2, 0x80, 0xbf]
  else if (lead === 0xe0) rule = [3, 0xa0, 0xbf]
  else if (lead === 0xed) rule = [3, 0x80, 0x9f]
  else if (lead >= 0xe1 && lead <= 0xef) rule = [3, 0x80, 0xbf]
  else if (lead === 0xf0) rule = [4, 0x90, 0xbf]
  else if (lead >= 0xf1 && lead <= 0xf3) rule = [4, 0x80, 0xbf]
  else if (lead === 0xf4) rule = [4, 0x80, 0x8f]
  else return 0
  const [length, low, high] = rule
  const second = bytes[at + 1]
  if (second === undefined || second < low || second > high) return 0
  for (let index = 2; index < length; index++) {
    const next = bytes[at + index]
    if (next === undefined || next < 0x80 || next > 0xbf) return 0
  }
  return length
}

/** 1-based line of a byte offset (lines end with "\n"), to help find the byte in an editor. */
export function lineOfByteOffset(bytes: Uint8Array, offset: number): number {
  let line = 1
  for (let index = 0; index < offset && index < bytes.length; index++) if (bytes[index] === 0x0a) line++
  return line
}
