// Where a JSON text stops being valid JSON. V8's JSON.parse names a position for some errors but not
// for others ("Unexpected token ..."), so a small scanner finds the offset of the first bad character.
// The scanner keeps its own stack of open brackets instead of recursing: a file of 8,000 "[" is a
// syntax error to report, not a reason to overflow the call stack.

export interface TextPosition {
  /** 1-based. */
  line: number
  /** 1-based, in UTF-16 code units like editors show for ASCII text. */
  column: number
  offset: number
}

// Sticky, so a number is matched where it stands without copying the rest of a 16 MiB text.
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y
const HEX4 = /[0-9a-fA-F]{4}/y

/** The offset of the first syntax error in `text`, or null when `text` is valid JSON. */
export function jsonSyntaxErrorOffset(text: string): number | null {
  let at = 0
  const skipSpace = () => {
    while (at < text.length && ' \t\n\r'.includes(text.charAt(at))) at++
  }
  // Each reader returns true when the token at `at` is well formed and leaves `at` after it; on false,
  // `at` is the offending character.
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
        HEX4.lastIndex = at + 2
        if (escaped !== '' && '"\\/bfnrt'.includes(escaped)) at += 2
        else if (escaped === 'u' && HEX4.test(text)) at += 6
        else {
          at++
          return false
        }
      } else at++
    }
    return false
  }
  const readMatch = (pattern: RegExp) => {
    pattern.lastIndex = at
    if (!pattern.test(text)) return false
    at = pattern.lastIndex
    return true
  }
  const readScalar = () => {
    const char = text.charAt(at)
    if (char === '"') return readString()
    if (char === 't') return readLiteral('true')
    if (char === 'f') return readLiteral('false')
    if (char === 'n') return readLiteral('null')
    return readMatch(NUMBER)
  }
  /** An object key and its colon; the value after it is read by the main loop. */
  const readKey = () => {
    skipSpace()
    if (text.charAt(at) !== '"' || !readString()) return false
    skipSpace()
    if (text.charAt(at) !== ':') return false
    at++
    return true
  }

  // The closing bracket each open container is waiting for, innermost last.
  const closers: string[] = []
  for (;;) {
    skipSpace()
    const char = text.charAt(at)
    if (char === '{' || char === '[') {
      const close = char === '{' ? '}' : ']'
      at++
      skipSpace()
      if (text.charAt(at) === close) at++
      else {
        closers.push(close)
        if (close === '}' && !readKey()) return at
        continue // the container's first value
      }
    } else if (!readScalar()) return at

    // After a value: close finished containers, then expect "," and the next entry.
    for (;;) {
      skipSpace()
      const close = closers.at(-1)
      if (close === undefined) return at < text.length ? at : null
      const next = text.charAt(at)
      if (next === close) {
        at++
        closers.pop()
        continue
      }
      if (next !== ',') return at
      at++
      if (close === '}' && !readKey()) return at
      break
    }
  }
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
