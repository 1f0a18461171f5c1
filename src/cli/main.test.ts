import { describe, expect, it } from 'vitest'
import { main } from './main.ts'

describe('live-evals command', () => {
  it('rejects an unknown verb with exit code 2', async () => {
    expect(await main(['no-such-verb'])).toBe(2)
  })
})
