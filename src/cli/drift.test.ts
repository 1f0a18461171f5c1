// The command line of `live-evals drift`: live and billed, so it refuses without a key and without a bound, each
// with exit 2 and a message naming what is missing, before any Vitest run starts.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { driftCommand } from './drift.ts'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'live-evals-drift-cli-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function command(argv: string[], env: NodeJS.ProcessEnv) {
  let err = ''
  let started = 0
  const code = await driftCommand(
    argv,
    { out: () => {}, err: (text) => (err += text) },
    {
      env,
      cwd: dir,
      runVitest: async () => {
        started += 1
        return { code: 0, output: '', resultFiles: [] }
      },
    },
  )
  return { code, err, started }
}

const KEY = { OPENAI_API_KEY: 'sk-test-drift-cli' }

describe('live-evals drift: refusals', () => {
  test('without a bound, with an unbounded or wrong one', async () => {
    for (const [argv, message] of [
      [['cassettes'], '--max-scenarios N is required'],
      [
        ['cassettes', '--max-scenarios', '0'],
        '--max-scenarios must be a whole number of at least 1 (got "0")',
      ],
      [['cassettes', '--max-scenarios', 'all'], '(got "all")'],
      [['cassettes', '--max-scenarios', '2.5'], '(got "2.5")'],
      [
        ['cassettes', '--max-scenarios', '1', '--latency-tolerance-ms', '-1'],
        '--latency-tolerance-ms must be',
      ],
    ] as const) {
      const refused = await command([...argv], KEY)
      expect(refused.code, argv.join(' ')).toBe(2)
      expect(refused.err).toContain(message)
      expect(refused.started).toBe(0)
    }
  })

  test('without a key, or without cassettes', async () => {
    const keyless = await command(['cassettes', '--max-scenarios', '1'], { OPENAI_API_KEY: ' ' })
    expect(keyless.code).toBe(2)
    expect(keyless.err).toContain('needs OPENAI_API_KEY (it is billed)')
    const missing = await command(['cassettes', '--max-scenarios', '1'], KEY)
    expect(missing.code).toBe(2)
    expect(missing.err).toContain(`${join(dir, 'cassettes')} is not a folder of cassettes`)
    expect(missing.started).toBe(0)
  })
})
