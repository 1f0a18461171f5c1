import { describe, expect, it } from 'vitest'
import { jsonSyntaxErrorOffset, positionOfOffset } from './json-syntax.ts'

describe('JSON syntax error location', () => {
  it('finds no error in valid JSON of every kind', () => {
    const text = JSON.stringify(
      { a: [1, -2.5e3, 0, true, false, null, 'q"\\\u00e9\n\u0001'], b: {}, c: [] },
      null,
      2,
    )
    expect(jsonSyntaxErrorOffset(text)).toBeNull()
    expect(jsonSyntaxErrorOffset(' "x" ')).toBeNull()
  })

  it('points at the first offending character', () => {
    expect(jsonSyntaxErrorOffset('[1, 2,]')).toBe(6)
    expect(jsonSyntaxErrorOffset('{"a" 1}')).toBe(5)
    expect(jsonSyntaxErrorOffset('[01]')).toBe(2)
    expect(jsonSyntaxErrorOffset('"\\x"')).toBe(2)
    expect(jsonSyntaxErrorOffset('{} {}')).toBe(3)
    expect(jsonSyntaxErrorOffset('[1')).toBe(2)
  })

  it('converts an offset to a 1-based line and column', () => {
    expect(positionOfOffset('ab\ncd\nef', 4)).toEqual({ line: 2, column: 2, offset: 4 })
    expect(positionOfOffset('ab', 0)).toEqual({ line: 1, column: 1, offset: 0 })
  })
})
