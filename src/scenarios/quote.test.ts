import { describe, expect, test } from 'vitest'
import { quotePath, quoteText } from './quote.ts'

describe('quoting author text and file paths in messages', () => {
  test('author text is cut to a 40-character prefix, saying how long it was', () => {
    expect(quoteText('short id')).toBe('"short id"')
    const long = 'x'.repeat(41)
    expect(quoteText(long)).toBe(`"${'x'.repeat(40)}..." (41 characters)`)
  })

  test('a file path is shown whole, file name included, however deep its folder', () => {
    const deep = `/home/someone/projects/voice-agent/${'nested/'.repeat(20)}caller_03.wav`
    expect(deep.length).toBeGreaterThan(40)
    expect(quotePath(deep)).toBe(JSON.stringify(deep))
  })

  test('a path past 1,024 characters keeps its last 80, where the file name is', () => {
    const huge = `/${'a'.repeat(2000)}/the-recording.wav`
    const quoted = quotePath(huge)
    expect(quoted).toBe(`"...${huge.slice(-80)}" (${huge.length} characters)`)
    expect(quoted).toContain('the-recording.wav')
  })
})
