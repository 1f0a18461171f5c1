// Where a JSON text stops being valid JSON. V8's JSON.parse names a position for some errors but not
// for others ("Unexpected token ..."), so a small scanner finds the offset of the first bad character.

export interface TextPosition {
  /** 1-based. */
  line: number
  /** 1-based, in UTF-16 code units like editors show for ASCII text. */
  column: number
  offset: number
}

/** The offset of the first syntax error in `text`, or null when `text` is valid JSON. */
export function jsonSyntaxErrorOffset(text: string): number | null {
  let at = 0
  const skipSpace = () => {
    while (at < text.length && ' \t\n\r'.includes(text.charAt(at))) at++
  }
  // Each reader returns true when the value at `at` is well formed and leaves `at` after it.
  const readLiteral = (word: string) => {
    for (const char of word) {
      if (text.charAt(at) !== char) return false
      at++
    }
    return true
  }
  const readString = () => {
    at++ // opening quote
    while (at < text.length) {
      const code = text.charCodeAt(at)
      if (code === 0x22) {
        at++
        return true
      }
      if (code < 0x20) return false
      if (code === 0x5c) {
        const escaped = text.charAt(at + 1)
        if ('"\\/bfnrt'.includes(escaped) && escaped !== '') at += 2
        else if (escaped === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) at += 6
        else {
          at++
          return false
        }
      } else at++
    }
    return false
  }
  const readNumber = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at))
    if (!match) return false
    at += match[0].length
    return true
  }
  const readSequence = (close: string, readEntry: () => boolean) => {
    at++ // opening bracket
    skipSpace()
    if (text.charAt(at) === close) {
      at++
      return true
    }
    for (;;) {
      if (!readEntry()) return false
      skipSpace()
      const next = text.charAt(at)
      if (next === close) {
        at++
        return true
      }
      if (next !== ',') return false
      at++
      skipSpace()
    }
  }
  const readValue = (): boolean => {
    skipSpace()
    const char = text.charAt(at)
    if (char === '{') {
      return readSequence('}', () => {
        if (text.charAt(at) !== '"' || !readString()) return false
        skipSpace()
        if (text.charAt(at) !== ':') return false
        at++
        return readValue()
      })
    }
    if (char === '[') return readSequence(']', readValue)
    if (char === '"') return readString()
    if (char === 't') return readLiteral('true')
    if (char === 'f') return readLiteral('false')
    if (char === 'n') return readLiteral('null')
    return readNumber()
  }
  if (!readValue()) return at
  skipSpace()
  return at < text.length ? at : null
}

export function positionOfOffset(text: string, offset: number): TextPosition {
  let line = 1
  let lineStart = 0
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text.charCodeAt(index) === 0x0a) {
      line++
      lineStart = index + 1
    }
  }
  return { line, column: offset - lineStart + 1, offset }
}
