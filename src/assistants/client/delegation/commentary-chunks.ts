// GPT-Live caps a context append (about 500 tokens), so a long backend answer goes out as several
// `session.commentary.append` events. Chunks are measured in UTF-8 bytes and cut only between code points,
// so every chunk is valid text and the chunks rejoin to exactly the answer.

/** The largest commentary chunk, in UTF-8 bytes: comfortably under the 500-token append limit. */
export const MAX_COMMENTARY_CHUNK_BYTES = 400

export function splitUtf8Chunks(text: string, maxBytes: number = MAX_COMMENTARY_CHUNK_BYTES): string[] {
  if (!Number.isInteger(maxBytes) || maxBytes < 4) {
    throw new RangeError(`maxBytes must be an integer of at least 4 (one code point), got ${maxBytes}`)
  }
  const chunks: string[] = []
  let current = ''
  let currentBytes = 0
  // for…of walks code points, so a surrogate pair is never cut in half.
  for (const character of text) {
    const bytes = Buffer.byteLength(character, 'utf8')
    if (currentBytes + bytes > maxBytes) {
      chunks.push(current)
      current = ''
      currentBytes = 0
    }
    current += character
    currentBytes += bytes
  }
  if (current !== '') chunks.push(current)
  return chunks
}
