// `live-evals gate --compare-models`: the per-model delta fails the gate (exit 1) with the check named, a wider
// limit passes (exit 0), judging the interval is inconclusive (exit 3), and a model flag without --compare-models
// is bad input (exit 2).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { row } from '../gate/gate.test-helpers.ts'
import { modelDocument } from '../gate/models.test-helpers.ts'
import { captureIO } from './capture-io.ts'
import { run as gate } from './gate.ts'

let folder = ''
let files: string[] = []
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'live-evals-gate-models-'))
  vi.stubEnv('GITHUB_STEP_SUMMARY', '')
  const reference = modelDocument('gpt-live-1', [row({ id: 'a' }), row({ id: 'b' })])
  const candidate = modelDocument('gpt-live-1.1', [row({ id: 'a' }), row({ id: 'b', status: 'failed' })])
  files = [join(folder, 'one.json'), join(folder, 'one-one.json')]
  await writeFile(files[0] as string, JSON.stringify(reference))
  await writeFile(files[1] as string, JSON.stringify(candidate))
})
afterEach(async () => {
  vi.unstubAllEnvs()
  await rm(folder, { recursive: true, force: true })
})

async function runGate(...argv: string[]) {
  const io = captureIO()
  const code = await gate(argv, io)
  return { code, stdout: io.stdout(), stderr: io.stderr() }
}

describe('live-evals gate --compare-models', () => {
  test('exits 1 on a pass rate drop beyond --max-pass-rate-drop, printing the comparison', async () => {
    const result = await runGate(...files, '--compare-models', '--max-pass-rate-drop', '0.05')
    expect(result.code, result.stderr).toBe(1)
    expect(result.stdout).toContain(
      'fail         max_pass_rate_drop:gpt-live-1.1: gpt-live-1.1 vs gpt-live-1',
    )
    expect(result.stdout).toContain('changed verdicts: crawl/responses b passed→failed')
    expect(result.stdout).toContain('gpt-live-1.1 vs gpt-live-1 (delta, 95% interval):')
    expect(result.stdout).toMatch(/model gpt-live-1\.1: 1\/2 passed; voice 0\.30 min active, standby unknown/)
  })

  test('exits 0 within a wider limit, and 3 when the interval is judged and straddles the limit', async () => {
    expect((await runGate(...files, '--compare-models', '--max-pass-rate-drop', '0.6')).code).toBe(0)
    const interval = await runGate(
      ...files,
      '--compare-models',
      '--max-pass-rate-drop',
      '0.05',
      '--pass-rate-interval',
    )
    expect(interval.code).toBe(3)
    expect(interval.stdout).toContain('inconclusive max_pass_rate_drop:gpt-live-1.1')
  })

  test('the reference can be named; a model flag without --compare-models is bad input', async () => {
    const reversed = await runGate(
      ...files,
      '--compare-models',
      '--reference-model',
      'gpt-live-1.1',
      '--max-pass-rate-drop',
      '0',
    )
    expect(reversed.code).toBe(0)
    expect(reversed.stdout).toContain('gpt-live-1 vs gpt-live-1.1')
    const bad = await runGate(...files, '--max-pass-rate-drop', '0.05')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--max-pass-rate-drop: compares models: add --compare-models')
    for (const flag of [
      ['--max-p95-latency-increase-ms', '100'],
      ['--reference-model', 'gpt-live-1.1'],
    ]) {
      const refused = await runGate(...files, ...flag)
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain(`${flag[0]}: compares models: add --compare-models`)
    }
  })
  test('a per-model limit out of its range is bad input naming the flag and the range', async () => {
    for (const [flag, value, range] of [
      ['--max-pass-rate-drop', '1.5', 'from 0 to 1'],
      ['--max-p95-latency-increase-ms', '-5', 'from 0 to'],
      ['--max-p95-latency-increase-ms', 'soon', 'from 0 to'],
    ]) {
      const refused = await runGate(...files, '--compare-models', flag as string, value as string)
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain(`${flag}: needs a number ${range}`)
    }
  })
})

describe('live-evals gate --latest with a model matrix', () => {
  test('takes the newest run of each model and architecture', async () => {
    const results = join(folder, 'results')
    for (const [name, model] of [
      ['crawl_offline_gpt-live-1_responses_20261202_000000_000Z', 'gpt-live-1'],
      ['crawl_offline_gpt-live-1.1_responses_20261202_000000_000Z', 'gpt-live-1.1'],
    ] as const) {
      await mkdir(join(results, name), { recursive: true })
      await writeFile(
        join(results, name, 'results.json'),
        JSON.stringify(modelDocument(model, [row({ id: 'a' })])),
      )
    }
    const result = await runGate('--latest', results, '--compare-models')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('latest crawl/responses: ')
    expect(result.stdout).toContain('latest crawl/gpt-live-1.1/responses: ')
  })
})
