import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { resultsDocument, row } from '../gate/gate.test-helpers.ts'
import { voiceRow } from '../gate/metric-thresholds.test-helpers.ts'
import { EXTENSION_KEY } from '../reporting/extensions/registry.ts'
import { run as approveBaseline } from './approve-baseline.ts'
import { captureIO } from './capture-io.ts'
import { run as gate } from './gate.ts'

let folder = ''
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'live-evals-gate-'))
  vi.stubEnv('GITHUB_STEP_SUMMARY', '')
})
afterEach(async () => {
  vi.unstubAllEnvs()
  await rm(folder, { recursive: true, force: true })
})

async function write(name: string, value: unknown): Promise<string> {
  const path = join(folder, name)
  await writeFile(path, typeof value === 'string' ? value : JSON.stringify(value))
  return path
}

async function runGate(...argv: string[]) {
  const io = captureIO()
  const code = await gate(argv, io)
  return { code, stdout: io.stdout(), stderr: io.stderr() }
}

const passing = () => resultsDocument([row({ id: 'a' }), row({ id: 'b' })])

describe('live-evals gate exit codes', () => {
  test('--max-metric and --min-metric bound a row metric by name: 1 when one fails, 2 for an unknown name', async () => {
    // Stop times 400 and 1 000 ms: mean 700.
    const file = await write('results.json', resultsDocument([voiceRow('a', 400), voiceRow('b', 1_000)]))
    const within = await runGate(file, '--max-metric', 'stop_time_ms=700', '--min-metric', 'talk_ratio=0.5')
    expect(within.code).toBe(0)
    expect(within.stdout).toContain(
      'pass         max_metric:stop_time_ms: stop time after a barge-in (stop_time_ms) mean 700 ms over n=2 rows',
    )
    const over = await runGate(file, '--max-metric', 'stop_time_ms=650')
    expect(over.code).toBe(1)
    expect(over.stdout).toContain('fail         max_metric:stop_time_ms')
    const unknown = await runGate(file, '--max-metric', 'stop_ms=1')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('--max-metric: unknown metric "stop_ms"')
  })
  test('0 when it passes, printing each check', async () => {
    const file = await write('results.json', passing())
    const result = await runGate(file, '--min-pass-rate', '0.9')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(
      'pass         min_pass_rate: pass rate 2/2 = 100.0% meets the minimum 90.0%',
    )
  })
  test('1 with the failing threshold named', async () => {
    const file = await write(
      'results.json',
      resultsDocument([row({ id: 'a' }), row({ id: 'b', status: 'failed' })]),
    )
    const result = await runGate(file, '--min-pass-rate', '0.9')
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('fail         min_pass_rate')
  })
  test('3 when repeated trials leave the threshold inside the interval', async () => {
    const rows = Array.from({ length: 10 }, (_, i) =>
      row({ id: 'a', trial: i + 1, status: i < 8 ? 'passed' : 'failed' }),
    )
    const file = await write('results.json', resultsDocument(rows))
    expect((await runGate(file, '--min-pass-rate', '0.8')).code).toBe(3)
  })
  test('2 with nothing to check: failed rows never pass a gate that was given no threshold', async () => {
    const file = await write(
      'results.json',
      resultsDocument([row({ id: 'a' }), row({ id: 'b', status: 'failed' })]),
    )
    const refused = await runGate(file)
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toContain(
      'live-evals gate: <threshold>: nothing to check: name a threshold (--min-pass-rate,',
    )
    expect(refused.stderr).toContain('Usage: live-evals gate')
    // Said on purpose: only the checks that always apply (here none fails).
    const always = await runGate(file, '--no-thresholds')
    expect(always.code).toBe(0)
    expect(always.stdout).toContain('gate pass: 1/2 rows passed; 0 check(s) failed.')
  })
  test('2 for bad input: not JSON, not schema 2.0, a missing file, a bad option', async () => {
    const notJson = await write('broken.json', '{"schema_version": ')
    const wrongVersion = await write('old.json', { schema_version: '1.0' })
    for (const argv of [
      [notJson, '--no-thresholds'],
      [wrongVersion, '--no-thresholds'],
      [join(folder, 'absent.json'), '--no-thresholds'],
      [notJson, '--min-pass-rate', '90'],
      ['--min-pass-rate', '0.9'],
      [await write('ok.json', passing()), '--no-regressions'],
      [await write('ok2.json', passing()), '--frobnicate'],
    ]) {
      const result = await runGate(...argv)
      expect(result.code, argv.join(' ')).toBe(2)
      expect(result.stderr).toMatch(/^live-evals gate: /)
    }
    expect((await runGate(notJson, '--no-thresholds')).stderr).toContain('broken.json: is not JSON')
    expect((await runGate(wrongVersion, '--no-thresholds')).stderr).toContain('schema_version must be "2.0"')
  })
  test('interrupted results (the documented marker) are refused unless --allow-partial', async () => {
    const document = passing()
    const marked = {
      ...document,
      run: {
        ...document.run,
        configuration: {
          ...document.run.configuration,
          [EXTENSION_KEY]: { version: '1.0', interrupted: true },
        },
      },
    }
    const file = await write('results.json', marked)
    const refused = await runGate(file, '--min-pass-rate', '1')
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('partial results (run.configuration.live_evals.interrupted is true)')
    expect((await runGate(file, '--min-pass-rate', '1', '--allow-partial')).code).toBe(0)
  })
  test('a rows journal beside the file that never ended marks the results partial', async () => {
    const document = passing()
    const file = await write('results.json', document)
    const header = {
      journal: 'live-evals rows',
      version: 1,
      run: document.run,
      dataset_order: ['a', 'b'],
      results_file: 'results.json',
    }
    await write('rows.jsonl', `${JSON.stringify(header)}\n`)
    const refused = await runGate(file, '--min-pass-rate', '1')
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('has no end line')
    await write(
      'rows.jsonl',
      `${JSON.stringify(header)}\n${JSON.stringify({ end: { reason: 'passed', at: '2026-12-01T00:00:00.000Z' } })}\n`,
    )
    expect((await runGate(file, '--min-pass-rate', '1')).code).toBe(0)
  })
})

describe('the Markdown summary', () => {
  test('--summary writes the outcome, counts, the baseline table and the report link', async () => {
    const file = await write(
      'results.json',
      resultsDocument([row({ id: 'a' }), row({ id: 'b', status: 'failed' })]),
    )
    const baseline = await write('baseline.json', passing())
    await write('report.html', '<!doctype html>')
    const summary = join(folder, 'summary.md')
    const result = await runGate(file, '--baseline', baseline, '--no-regressions', '--summary', summary)
    expect(result.code).toBe(1)
    const markdown = await readFile(summary, 'utf8')
    expect(markdown).toContain('❌ **Gate failed**')
    expect(markdown).toContain('| crawl | client | 2 | 1 | 1 | 0 |')
    expect(markdown).toContain('- Regressed (1): `crawl/client b`')
    expect(markdown).toContain('| tool accuracy (higher is better) | 2 |')
    expect(markdown).toContain('[HTML report](report.html)')
  })
  test('appends to $GITHUB_STEP_SUMMARY when it is set', async () => {
    const file = await write('results.json', passing())
    const stepSummary = await write('step-summary.md', 'earlier step\n')
    vi.stubEnv('GITHUB_STEP_SUMMARY', stepSummary)
    expect((await runGate(file, '--min-pass-rate', '1')).code).toBe(0)
    const text = await readFile(stepSummary, 'utf8')
    expect(text.startsWith('earlier step\n## live-evals gate')).toBe(true)
  })
})

describe('live-evals approve-baseline', () => {
  test('copies a valid, complete results file', async () => {
    const file = await write('results.json', passing())
    const io = captureIO()
    const destination = join(folder, 'baseline.json')
    expect(await approveBaseline([file, destination], io)).toBe(0)
    expect(await readFile(destination, 'utf8')).toBe(await readFile(file, 'utf8'))
    expect(io.stdout()).toContain('2 rows (2 passed, 0 failed, 0 infrastructure errors)')
  })
  test('refuses an invalid file and leaves the old baseline in place', async () => {
    const destination = await write('baseline.json', passing())
    const before = await readFile(destination, 'utf8')
    const io = captureIO()
    expect(await approveBaseline([await write('bad.json', '{'), destination], io)).toBe(2)
    expect(io.stderr()).toContain('bad.json: is not JSON')
    expect(await readFile(destination, 'utf8')).toBe(before)
    expect(await approveBaseline([destination], captureIO())).toBe(2)
  })
})

describe('through the live-evals command', () => {
  test('gate, report and approve-baseline are verbs of live-evals', async () => {
    const { main } = await import('./main.ts')
    const help = captureIO()
    expect(await main(['--help'], help)).toBe(0)
    expect(help.stdout()).toMatch(/^ {2}gate\s+<results\.json>/m)
    expect(help.stdout()).toMatch(/^ {2}report\s+<run-dir>/m)
    expect(help.stdout()).toMatch(/^ {2}approve-baseline\s+<results\.json> <baseline\.json>/m)
    const file = await write('results.json', resultsDocument([row({ id: 'a', status: 'failed' })]))
    const io = captureIO()
    expect(await main(['gate', file, '--min-pass-rate', '1'], io)).toBe(1)
    expect(io.stdout()).toContain('fail         min_pass_rate')
  })
})

describe('argument parsing', () => {
  test('--baseline takes every file up to the next option', async () => {
    const { parseGateArguments } = await import('./gate.ts')
    const parsed = parseGateArguments([
      'a.json',
      'b.json',
      '--baseline',
      'x.json',
      'y.json',
      '--required',
      'p, q',
      '--min-pass-rate',
      '0.5',
    ])
    expect(parsed.files).toEqual(['a.json', 'b.json'])
    expect(parsed.baselines).toEqual(['x.json', 'y.json'])
    expect(parsed.options).toMatchObject({ required: ['p', 'q'], minPassRate: 0.5 })
    // Files named after the baselines would be baselines: with none left, the command refuses instead of guessing.
    expect(() => parseGateArguments(['--baseline', 'x.json', 'a.json'])).toThrow(
      'name at least one results.json',
    )
  })
})
