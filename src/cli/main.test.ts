import { describe, expect, it } from 'vitest'
import { captureIO } from './capture-io.ts'
import { main } from './main.ts'

describe('live-evals command', () => {
  it('lists its verbs on --help and exits 0', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const io = captureIO()
      expect(await main([flag], io)).toBe(0)
      expect(io.stdout()).toMatch(/^Usage: live-evals <command>/)
      expect(io.stdout()).toMatch(/^ {2}validate\s+<dataset\.json>\.\.\. {2}check datasets/m)
    }
  })

  it('rejects a missing or unknown verb with exit code 2 and the verb list', async () => {
    const missing = captureIO()
    expect(await main([], missing)).toBe(2)
    expect(missing.stderr()).toContain('no command given')
    const unknown = captureIO()
    expect(await main(['no-such-verb'], unknown)).toBe(2)
    expect(unknown.stderr()).toContain('unknown command "no-such-verb"')
    expect(unknown.stderr()).toContain('validate')
    // Names inherited from Object.prototype are not verbs.
    expect(await main(['constructor'], captureIO())).toBe(2)
  })

  it('passes the remaining arguments to the verb', async () => {
    const io = captureIO()
    expect(await main(['validate', '--help'], io)).toBe(0)
    expect(io.stdout()).toMatch(/^Usage: live-evals validate/)
  })
})
