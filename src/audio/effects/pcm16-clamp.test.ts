import { describe, expect, it } from 'vitest'
import { saturatePcm16 } from './pcm16-clamp.ts'

describe('saturatePcm16', () => {
  it('rounds and saturates to the PCM16 range', () => {
    expect([40000.2, -40000, 32766.5, -32768.5, 12.5, -12.5].map(saturatePcm16)).toEqual([
      32767, -32768, 32767, -32768, 13, -12,
    ])
  })
})
