// A results folder that has run twice: `gate --latest` judges only the newest run of each phase and architecture
// (a glob over the folder names every scenario twice and fails as duplicates), passing over newer runs that were
// interrupted or filtered but taking (and refusing) a newer finished run whose spec file failed to load, and
// `prune --keep N` keeps the newest N of each and the newest whole one, never a folder without results.json (a run
// still going) or a dot folder.
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { resultsDocument, row } from '../gate/gate.test-helpers.ts'
import type { RunExtensions } from '../reporting/extensions/registry.ts'
import { withRunExtensions } from '../reporting/results-document.ts'
import { captureIO } from './capture-io.ts'
import { run as gate } from './gate.ts'
import { main } from './main.ts'
import { run as prune } from './prune.ts'

let results = ''
beforeEach(async () => {
  results = await mkdtemp(join(tmpdir(), 'live-evals-runs-'))
  vi.stubEnv('GITHUB_STEP_SUMMARY', '')
})
afterEach(async () => {
  vi.unstubAllEnvs()
  await rm(results, { recursive: true, force: true })
})

/** The `selection` marker of a `-t crawl_003` run: one scenario of the six it was offered. */
const BY_NAME_FILTER = {
  selected_scenarios: 1,
  offered_scenarios: 6,
  test_name_filter: 'crawl_003',
  tags_filter: [],
  spec_files_left_out: [],
}

/** A finished run folder whose results.json was written `minute` minutes into the day. */
async function finishedRun(
  name: string,
  architecture: string,
  minute: number,
  status: 'passed' | 'failed',
  extensions?: RunExtensions,
) {
  const folder = join(results, name)
  await mkdir(folder)
  const file = join(folder, 'results.json')
  const document = resultsDocument([row({ id: 'a', status })], { architecture })
  const run = withRunExtensions(document.run, extensions)
  await writeFile(file, JSON.stringify({ ...document, run }))
  const at = new Date(Date.UTC(2026, 11, 1, 0, minute))
  await utimes(file, at, at)
}

/** Two runs of both architectures (the first failed), a run still going, Vitest's attachment copies. */
async function twoRuns(): Promise<void> {
  await finishedRun('crawl_offline_client_20261201_000100_000Z', 'client', 1, 'failed')
  await finishedRun('crawl_offline_responses_20261201_000100_000Z', 'responses', 1, 'failed')
  await finishedRun('crawl_offline_client_20261201_000500_000Z', 'client', 5, 'passed')
  await finishedRun('crawl_offline_responses_20261201_000500_000Z', 'responses', 5, 'passed')
  await mkdir(join(results, 'crawl_offline_client_20261201_000900_000Z'))
  await writeFile(join(results, 'crawl_offline_client_20261201_000900_000Z', 'rows.jsonl'), '')
  await mkdir(join(results, '.attachments'))
}

async function command(verb: typeof gate, ...argv: string[]) {
  const io = captureIO()
  const code = await verb(argv, io)
  return { code, stdout: io.stdout(), stderr: io.stderr() }
}

describe('gate --latest', () => {
  test('judges the newest finished run of each architecture, where a glob over the folder fails', async () => {
    await twoRuns()
    const everything = (await readdir(results))
      .filter((name) => !name.startsWith('.') && !name.endsWith('000900_000Z'))
      .map((name) => join(results, name, 'results.json'))
    const glob = await command(gate, ...everything, '--min-pass-rate', '1')
    expect(glob.code).not.toBe(0)

    const latest = await command(gate, '--latest', results, '--min-pass-rate', '1')
    expect(latest.stderr).toBe('')
    expect(latest.code).toBe(0)
    expect(latest.stdout).toContain(
      `latest crawl/client: ${join(results, 'crawl_offline_client_20261201_000500_000Z', 'results.json')}`,
    )
    expect(latest.stdout).toContain(
      `latest crawl/responses: ${join(results, 'crawl_offline_responses_20261201_000500_000Z', 'results.json')}`,
    )
    expect(latest.stdout).toContain('gate pass: 2/2 rows passed')
  })

  test('passes over newer interrupted and filtered runs, naming each and why; --allow-partial takes them', async () => {
    await twoRuns()
    const interrupted = { ending: 'interrupted', finished_rows: 1, planned_scenarios: 6 } as const
    await finishedRun('crawl_offline_client_20261201_000700_000Z', 'client', 7, 'passed', {
      completion: interrupted,
    })
    await finishedRun('crawl_offline_responses_20261201_000700_000Z', 'responses', 7, 'passed', {
      selection: BY_NAME_FILTER,
    })
    const newest = (name: string) => join(results, name, 'results.json')

    const latest = await command(gate, '--latest', results, '--min-pass-rate', '1')
    expect(latest.stderr).toBe('')
    expect(latest.stdout).toContain(
      `skipped crawl/client: ${newest('crawl_offline_client_20261201_000700_000Z')}: the run was interrupted ` +
        'after 1 of 6 planned scenarios (run.configuration.live_evals.completion)\n',
    )
    expect(latest.stdout).toContain(
      `skipped crawl/responses: ${newest('crawl_offline_responses_20261201_000700_000Z')}: a filtered run: ` +
        '1 of 6 scenarios, chosen by the test-name filter /crawl_003/ (run.configuration.live_evals.selection)\n',
    )
    expect(latest.stdout).toContain(
      `latest crawl/client: ${newest('crawl_offline_client_20261201_000500_000Z')}`,
    )
    expect(latest.stdout).toContain(
      `latest crawl/responses: ${newest('crawl_offline_responses_20261201_000500_000Z')}`,
    )

    const partial = await command(gate, '--latest', results, '--min-pass-rate', '1', '--allow-partial')
    expect(partial.stdout).not.toContain('skipped')
    expect(partial.stdout).toContain(
      `latest crawl/client: ${newest('crawl_offline_client_20261201_000700_000Z')}`,
    )

    // Named explicitly, the filtered run is refused like partial results, unless --allow-partial.
    const named = await command(
      gate,
      newest('crawl_offline_responses_20261201_000700_000Z'),
      '--min-pass-rate',
      '1',
    )
    expect(named.code).toBe(2)
    expect(named.stderr).toContain('holds partial results (a filtered run: 1 of 6 scenarios')
  })

  test('takes a newer finished run whose spec file failed to load and refuses it, never the older whole run', async () => {
    await twoRuns()
    const failed = {
      ending: 'spec_files_failed' as const,
      finished_rows: 1,
      planned_scenarios: 6,
      failed_spec_files: [{ file: 'specs/crawl/broken.spec.ts', error: 'Cannot find dataset' }],
    }
    await finishedRun('crawl_offline_client_20261201_000700_000Z', 'client', 7, 'passed', {
      completion: failed,
    })
    const incomplete = join(results, 'crawl_offline_client_20261201_000700_000Z', 'results.json')

    const latest = await command(gate, '--latest', results, '--min-pass-rate', '1')
    expect(latest.code).toBe(2)
    expect(latest.stdout).not.toContain('skipped')
    expect(latest.stdout).toContain(`latest crawl/client: ${incomplete}`)
    expect(latest.stderr).toContain('specs/crawl/broken.spec.ts (Cannot find dataset)')

    const partial = await command(gate, '--latest', results, '--min-pass-rate', '1', '--allow-partial')
    expect(partial.code).toBe(0)
    expect(partial.stdout).toContain(`latest crawl/client: ${incomplete}`)
  })

  test('a group whose every run is filtered is bad input, naming why', async () => {
    const byFile = {
      selected_scenarios: 1,
      offered_scenarios: 6,
      test_name_filter: null,
      tags_filter: [],
      spec_files_left_out: ['specs/crawl/other.spec.ts'],
    }
    await finishedRun('crawl_offline_client_20261201_000700_000Z', 'client', 7, 'passed', {
      selection: byFile,
    })
    const result = await command(gate, '--latest', results, '--min-pass-rate', '1')
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('a spec-file filter that left out specs/crawl/other.spec.ts')
    expect(result.stderr).toContain(`${results} holds no complete, unfiltered run of crawl/client`)
  })

  test('a folder with no finished run is bad input naming it', async () => {
    const result = await command(gate, '--latest', results, '--min-pass-rate', '1')
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`--latest: ${results} holds no finished run (no results.json)`)
  })
})

describe('prune', () => {
  test('keeps the newest N finished runs of each architecture, and every unfinished or dot folder', async () => {
    await twoRuns()
    const dry = await command(prune, results, '--keep', '1', '--dry-run')
    expect(dry.code).toBe(0)
    expect(dry.stdout).toContain('would remove 2 run folder(s); kept 2.')
    expect((await readdir(results)).length).toBe(6)

    const pruned = await command(prune, results, '--keep', '1')
    expect(pruned.code).toBe(0)
    expect(pruned.stdout).toContain(
      `removed crawl/client: ${join(results, 'crawl_offline_client_20261201_000100_000Z')}`,
    )
    expect((await readdir(results)).sort()).toEqual([
      '.attachments',
      'crawl_offline_client_20261201_000500_000Z',
      'crawl_offline_client_20261201_000900_000Z',
      'crawl_offline_responses_20261201_000500_000Z',
    ])
  })

  test('keeps the newest whole run of each group when newer partial runs fill --keep', async () => {
    await twoRuns()
    // A newer filtered run of each architecture: with --keep 1 it alone would stay, and gate --latest would have
    // nothing to take.
    for (const architecture of ['client', 'responses']) {
      await finishedRun(`crawl_offline_${architecture}_20261201_000700_000Z`, architecture, 7, 'passed', {
        selection: BY_NAME_FILTER,
      })
    }
    const pruned = await command(prune, results, '--keep', '1')
    expect(pruned.code).toBe(0)
    expect(pruned.stdout).toContain(
      `kept crawl/client: ${join(results, 'crawl_offline_client_20261201_000500_000Z')} (the run gate --latest judges`,
    )
    expect((await readdir(results)).sort()).toEqual([
      '.attachments',
      'crawl_offline_client_20261201_000500_000Z',
      'crawl_offline_client_20261201_000700_000Z',
      'crawl_offline_client_20261201_000900_000Z',
      'crawl_offline_responses_20261201_000500_000Z',
      'crawl_offline_responses_20261201_000700_000Z',
    ])
    expect((await command(gate, '--latest', results, '--min-pass-rate', '1')).code).toBe(0)
  })

  test('refuses a missing or bad --keep and names what to give', async () => {
    expect((await command(prune, results)).stderr).toContain('say how many runs to keep with --keep <N>')
    const zero = await command(prune, results, '--keep', '0')
    expect(zero.code).toBe(2)
    expect(zero.stderr).toContain('--keep needs a whole number of runs, 1 or more (got 0)')
  })
})

test('live-evals --version prints the package version', async () => {
  const io = captureIO()
  expect(await main(['--version'], io)).toBe(0)
  expect(io.stdout()).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?\n$/)
  expect(io.stdout()).toBe(
    `${(await import('../../package.json', { with: { type: 'json' } })).default.version}\n`,
  )
})
