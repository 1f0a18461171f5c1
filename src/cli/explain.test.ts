// `live-evals explain` on the command line: what it prints and how it exits, for a run it explains and for every
// input it must refuse (no run folder, a run with no failed rows, an unknown or passing --scenario, a bad
// --trials, a bad price table, a project that no longer evaluates the scenario); the report is rewritten with the
// explanation; SIGTERM while the project's Vitest re-runs stops both and keeps what finished.
import { spawn } from 'node:child_process'
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  EXPLAIN_VITEST_CONFIG,
  explainEnvironment,
  misheardWalkDataset,
  ROOT,
  recordRun,
  scratchFolder,
  writeToml,
} from '../explain/explain.test-helpers.ts'
import { settingsFromToml } from '../phases/single-turn/test-support.ts'
import { captureIO } from './capture-io.ts'
import { explainCommand } from './explain.ts'
import { main } from './main.ts'

let folder = ''
let failing = ''
let passing = ''
let toml = ''
let env: Record<string, string | undefined> = {}

beforeAll(async () => {
  folder = await scratchFolder()
  env = await explainEnvironment(folder)
  const dataset = await misheardWalkDataset(folder)
  const linesOf = (path: string) => [
    '[dataset]',
    `path = ${JSON.stringify(path)}`,
    '[execution]',
    'mode = "offline"',
  ]
  toml = await writeToml(folder, 'walk.toml', linesOf(dataset))
  const walk = (path: string) => settingsFromToml('walk', linesOf(path))
  failing = await recordRun({
    settings: await walk(dataset),
    dataset,
    architecture: 'client',
    resultsDir: join(folder, 'results'),
    only: ['explain_misheard_noisy'],
  })
  const bundled = join(ROOT, 'scenarios/walk/restaurant.json')
  passing = await recordRun({
    settings: await walk(bundled),
    dataset: bundled,
    architecture: 'client',
    resultsDir: join(folder, 'passing'),
    only: ['walk_001_booking_complete_request'],
  })
}, 60_000)

afterAll(async () => {
  if (folder !== '') await rm(folder, { recursive: true, force: true })
})

async function explain(argv: string[]) {
  const io = captureIO()
  const code = await explainCommand(argv, io, { env, cwd: ROOT })
  return { code, out: io.stdout(), err: io.stderr() }
}

describe('live-evals explain', () => {
  test('explains a failed run: the plan first, the verdict, the files and the rewritten report', async () => {
    const { code, out, err } = await explain([
      failing,
      // k = 2 is the fewest that still says "fixed" (2/2 against 0/2): each trial is 4 offline re-runs.
      '--trials',
      '2',
      '--seed',
      '4',
      ...['--vitest-config', EXPLAIN_VITEST_CONFIG, '--project', 'walk-explain', '--config', toml],
    ])
    expect(err).toBe('')
    expect(code).toBe(0)
    const lines = out.split('\n')
    expect(lines[0]).toMatch(/: 1 failed scenario\(s\) to explain, offline re-runs, k = 2 per arm, seed 4$/)
    expect(lines[1]).toBe(
      '  explain_misheard_noisy: unchanged + 3 intervention(s) (clean_audio, text_for_audio, suppress_delegation) = 8 re-runs',
    )
    expect(lines[2]).toBe('budget: 8 of 8 re-runs fit under the cap of 100; offline: free')
    expect(lines[3]).toMatch(/^re-running in the Vitest project "walk-explain" of src\/explain\/fixtures\//)
    expect(lines[4]).toBe(
      "  explain_misheard_noisy: fixed by the scenario's text instead of its recording (a perfect hearing) in 2/2 (unchanged 0/2): a hearing failure",
    )
    const explanation = /Explanation: (.*)\n/.exec(out)?.[1] as string
    expect(explanation).toMatch(/-explained_\d{8}_\d{6}_\d{3}Z\/explain\.json$/)
    expect(JSON.parse(await readFile(explanation, 'utf8')).explanations).toHaveLength(1)
    const report = /Report: (.*)\n/.exec(out)?.[1] as string
    expect(await readFile(report, 'utf8')).toContain('Why it failed')
  }, 120_000)

  test('SIGTERM while the project re-runs: the run is stopped, what finished is written, exit 130', async () => {
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'bin/live-evals.js'),
        'explain',
        failing,
        ...['--vitest-config', EXPLAIN_VITEST_CONFIG, '--project', 'walk-explain', '--config', toml],
      ],
      { cwd: ROOT, env },
    )
    let out = ''
    let stopped = false
    child.stdout.on('data', (chunk) => {
      out += chunk
      // The project's Vitest has just been started (it takes seconds to collect): stop the explain now, once (a
      // second signal ends it at once).
      if (!stopped && out.includes('re-running in the Vitest project')) {
        stopped = true
        child.kill('SIGTERM')
      }
    })
    child.stderr.on('data', (chunk) => (out += chunk))
    const code = await new Promise((resolve) => child.on('close', resolve))
    expect(code, out).toBe(130)
    expect(out).toContain('interrupted: 0 of 1 scenario(s) explained; the rest are listed as not explained')
    const written = JSON.parse(await readFile(/Explanation: (.*)\n/.exec(out)?.[1] as string, 'utf8'))
    expect(written.not_explained).toEqual([
      expect.objectContaining({ scenario_id: 'explain_misheard_noisy', reason: 'interrupted' }),
    ])
  }, 120_000)

  test('is a verb of the live-evals command', async () => {
    const io = captureIO()
    expect(await main(['--help'], io)).toBe(0)
    expect(io.stdout()).toMatch(/explain +<run-dir> \[--scenario ID\] \[--trials K\]/)
  })

  test('refuses what it cannot explain, saying what and why (exit 1; a scenario it cannot re-run is named)', async () => {
    const missing = await explain([join(folder, 'no-such-run')])
    expect(missing).toMatchObject({ code: 1, out: '' })
    expect(missing.err).toMatch(/^live-evals explain: no run folder at .*no-such-run \(ENOENT\)\n$/)

    const empty = join(folder, 'empty-run')
    await mkdir(empty, { recursive: true })
    expect((await explain([empty])).err).toMatch(
      /results\.json cannot be read \(ENOENT\): not a finished run folder/,
    )

    const broken = join(folder, 'broken-run')
    await mkdir(broken, { recursive: true })
    await writeFile(join(broken, 'results.json'), '{"schema_version": ')
    expect((await explain([broken])).err).toMatch(/broken-run\/results\.json is not JSON/)
    await writeFile(join(broken, 'results.json'), '{"schema_version": "2.0"}')
    expect((await explain([broken])).err).toMatch(/results\.json: not a results document \(run: /)

    // A failed row whose details are gone cannot be re-run: it is named, with the file, and nothing else breaks.
    const copy = join(folder, 'copy', 'run')
    await cp(failing, copy, { recursive: true })
    await rm(join(copy, 'transcripts'), { recursive: true })
    const unreadable = await explain([copy, '--out', join(folder, 'copy-explained')])
    expect(unreadable.code).toBe(0)
    expect(unreadable.out).toMatch(
      /explain_misheard_noisy: not explained \(unreadable\): .*transcripts\/explain_misheard_noisy\.json does not exist/,
    )

    const nothing = await explain([passing])
    expect(nothing.code).toBe(1)
    expect(nothing.err).toMatch(/has no failed rows \(1 passed of 1\): there is nothing to explain/)

    const unknown = await explain([failing, '--scenario', 'nope'])
    expect(unknown.code).toBe(1)
    expect(unknown.err).toMatch(
      /--scenario nope: no such scenario in .*results\.json \(its scenarios: explain_misheard_noisy\)/,
    )

    const passed = await explain([passing, '--scenario', 'walk_001_booking_complete_request'])
    expect(passed.err).toMatch(
      /--scenario walk_001_booking_complete_request passed in .*: there is no failure to explain/,
    )

    // A project whose spec files no longer evaluate the scenario (its dataset lost it): named, with what to do.
    const elsewhere = await writeToml(folder, 'bundled.toml', [
      '[dataset]',
      `path = ${JSON.stringify(join(ROOT, 'scenarios/walk/restaurant.json'))}`,
    ])
    const gone = await explain([
      failing,
      '--trials',
      '1',
      ...['--vitest-config', EXPLAIN_VITEST_CONFIG, '--project', 'walk-explain', '--config', elsewhere],
    ])
    expect(gone.code).toBe(0)
    expect(gone.out).toContain(
      '  explain_misheard_noisy: not explained (not_rerun): no spec file of the Vitest project "walk-explain" ' +
        'evaluates explain_misheard_noisy any more',
    )

    const prices = join(folder, 'prices.json')
    await writeFile(prices, '{"read_on": "yesterday"}')
    const badPrices = await explain([failing, '--prices', prices])
    expect(badPrices.code).toBe(1)
    expect(badPrices.err).toMatch(/--prices: Price table .*prices\.json: read_on/)
  }, 60_000)

  test('a bad command line is a usage error (exit 2) naming the flag', async () => {
    for (const [argv, message] of [
      [[failing, '--trials', '0'], '--trials must be an integer of 1 or more (got "0")'],
      [[failing, '--trials', 'five'], '--trials must be an integer of 1 or more (got "five")'],
      [[failing, '--trials'], '--trials must be an integer of 1 or more (got nothing)'],
      [[failing, '--max-reruns', '-3'], '--max-reruns must be an integer of 1 or more (got "-3")'],
      [[failing, '--seed', '1.5'], '--seed must be an integer (got "1.5")'],
      [[failing, '--scenario'], '--scenario needs a value'],
      [[failing, '--vitest-config'], '--vitest-config needs a value'],
      [[failing, '--project', '--trials', '2'], '--project needs a value'],
      [[failing, '--verbose'], 'unknown option --verbose'],
      [[], 'name exactly one run folder'],
      [[failing, failing], 'name exactly one run folder'],
    ] as const) {
      const result = await explain([...argv])
      expect(result.code, argv.join(' ')).toBe(2)
      expect(result.err).toContain(`live-evals explain: ${message}\n`)
      expect(result.err).toContain('Usage: live-evals explain <run-dir>')
    }
    const help = await explain(['--help'])
    expect(help).toMatchObject({ code: 0, err: '' })
    expect(help.out).toContain('--max-reruns N')
  })

  test('a bad explain setting from the environment is refused by name (exit 1)', async () => {
    const io = captureIO()
    const code = await explainCommand([failing], io, { env: { ...env, LIVE_EVALS_EXPLAIN_TRIALS: '0' } })
    expect(code).toBe(1)
    expect(io.stderr()).toContain('LIVE_EVALS_EXPLAIN_TRIALS')
    expect(io.stderr()).toContain('explain.trials must be greater than 0')
  })
})
