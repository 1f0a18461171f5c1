import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join, relative, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { DatasetValidationError } from '../scenarios/index.ts'
import { releaseUnusedRunDirectories } from './plugin/run-directories.ts'
import { runStampOf } from './plugin/run-stamp.ts'
import { plannedRunFor, planRun } from './run-plan.ts'
import { architecturesToEvaluate, loadSuiteSettings, resultsDirectory } from './settings.ts'

const FIXTURES = resolve(import.meta.dirname, 'fixtures')
const CONFIG = join(FIXTURES, 'crawl.toml')
const RUN_CONFIG = resolve(import.meta.dirname, '../../specs/run/config.toml')

async function scratch(): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = await mkdtemp(join(tmpdir(), 'live-evals-plan-'))
  const envFile = join(dir, 'empty.env')
  await writeFile(envFile, '')
  return { dir, env: { LIVE_EVALS_ENV_FILE: envFile, LIVE_EVALS_RESULTS_DIR: join(dir, 'results') } }
}

const NOW = new Date(Date.UTC(2026, 7, 18, 0, 0, 0, 0))

describe('architectures', () => {
  test('both when nobody chose one, only the chosen one otherwise', async () => {
    const { env } = await scratch()
    expect(architecturesToEvaluate(loadSuiteSettings('crawl', CONFIG, { env }))).toEqual([
      'responses',
      'client',
    ])
    const chosen = loadSuiteSettings('crawl', CONFIG, { env: { ...env, OPENAI_ASSISTANT_MODE: 'client' } })
    expect(architecturesToEvaluate(chosen)).toEqual(['client'])
  })

  test('results go to results/<phase>/ under the project unless a folder is set', async () => {
    const { env } = await scratch()
    const settings = loadSuiteSettings('crawl', CONFIG, { env: { ...env, LIVE_EVALS_RESULTS_DIR: '' } })
    expect(resultsDirectory(settings, '/project')).toBe('/project/results/crawl')
  })
})

describe('planRun', () => {
  test('reserves one directory per architecture with its results.json run block', async () => {
    const { dir, env } = await scratch()
    const settings = loadSuiteSettings('crawl', CONFIG, { env })
    const plan = await planRun(settings, { projectRoot: dir, now: NOW })
    expect(plan.scenarioIds).toEqual(['fixture_wrong_tool', 'fixture_hours'])
    expect(plan.scenarios.map((scenario) => scenario.id)).toEqual(plan.scenarioIds)
    expect(plan.settings).toEqual(settings)
    expect(plan.shard).toBeNull()
    expect(plan.runs.map((run) => run.name)).toEqual([
      'crawl_offline_responses_20260818_000000_000Z',
      'crawl_offline_client_20260818_000000_000Z',
    ])
    expect((await readdir(join(dir, 'results'))).sort()).toEqual(plan.runs.map((run) => run.name).sort())
    const client = plannedRunFor(plan, 'client')
    expect(client.metadata).toMatchObject({
      id: client.name,
      module: 'crawl',
      execution_mode: 'offline_fixture',
      interaction: 'single_turn',
      // Relative to the project (here the scratch folder, so the repository's fixture is up and over).
      dataset: relative(dir, join(FIXTURES, 'tiny-dataset.json')),
      configuration: {
        audio_source: 'synthetic',
        assistant_mode: 'client',
        concurrency: 1,
        real_time: false,
      },
    })
  })

  test('never reuses a run directory: a second plan in the same millisecond gets its own', async () => {
    const { dir, env } = await scratch()
    const settings = loadSuiteSettings('crawl', CONFIG, {
      env: { ...env, OPENAI_ASSISTANT_MODE: 'responses' },
    })
    const first = await planRun(settings, { projectRoot: dir, now: NOW })
    const second = await planRun(settings, { projectRoot: dir, now: NOW })
    expect(second.runs[0]?.directory).not.toBe(first.runs[0]?.directory)
  })

  test('a live run without a key fails before anything is created and says how to run offline', async () => {
    const { dir, env } = await scratch()
    const settings = loadSuiteSettings('crawl', CONFIG, { env: { ...env, LIVE_EVALS_MODE: 'live' } })
    await expect(planRun(settings, { projectRoot: dir, now: NOW })).rejects.toThrow(/LIVE_EVALS_MODE=offline/)
    await expect(readdir(join(dir, 'results'))).rejects.toThrow(/ENOENT/)
  })

  test('a bad dataset fails with every violation before anything is created', async () => {
    const { dir, env } = await scratch()
    const settings = loadSuiteSettings('crawl', CONFIG, {
      env: { ...env, LIVE_EVALS_DATASET: join(FIXTURES, 'bad-dataset.json') },
    })
    const failure = planRun(settings, { projectRoot: dir, now: NOW })
    await expect(failure).rejects.toBeInstanceOf(DatasetValidationError)
    await expect(failure).rejects.toThrow(
      /title \[scenario fixture_bad_one\][\s\S]*delegation \[scenario fixture_bad_two\]/,
    )
    await expect(readdir(join(dir, 'results'))).rejects.toThrow(/ENOENT/)
  })

  test('a scenario tag naming no fault profile stops the run first, naming the scenario and the tag', async () => {
    const { dir, env } = await scratch()
    const raw = JSON.parse(await readFile(join(FIXTURES, 'tiny-dataset.json'), 'utf8')) as {
      scenarios: { tags?: string[] }[]
    }
    for (const scenario of raw.scenarios) scenario.tags = ['fault_profile:haunted']
    const dataset = join(dir, 'tagged.json')
    await writeFile(dataset, JSON.stringify(raw))
    const settings = loadSuiteSettings('crawl', CONFIG, { env: { ...env, LIVE_EVALS_DATASET: dataset } })
    await expect(planRun(settings, { projectRoot: dir, now: NOW })).rejects.toThrow(
      /Scenario fixture_wrong_tool: tag "fault_profile:haunted" names an unknown fault profile "haunted"/,
    )
    await expect(readdir(join(dir, 'results'))).rejects.toThrow(/ENOENT/)
    // A tag naming nothing is the dataset's mistake whatever the setting, "none" included.
    const off = loadSuiteSettings('crawl', CONFIG, {
      env: { ...env, LIVE_EVALS_DATASET: dataset, LIVE_EVALS_FAULTS: 'none' },
    })
    await expect(planRun(off, { projectRoot: dir, now: NOW })).rejects.toThrow(/"haunted"/)
  })

  test('RUN: a broken interventions sidecar, or one naming a scenario the run does not have, stops the run first', async () => {
    const { dir, env } = await scratch()
    const sidecar = join(dir, 'interventions.json')
    await writeFile(
      sidecar,
      JSON.stringify({
        schema_version: '1.0',
        interventions: { run_001_booking_complete: [], run_999_typo: [] },
      }),
    )
    const settings = loadSuiteSettings('run', RUN_CONFIG, {
      env: { ...env, LIVE_EVALS_INTERVENTIONS: sidecar },
    })
    const failure = planRun(settings, { projectRoot: dir, now: NOW })
    await expect(failure).rejects.toThrow(
      /Interventions file .*interventions\.json: interventions\.run_999_typo: scenario "run_999_typo" is not in the dataset/,
    )
    await expect(readdir(join(dir, 'results'))).rejects.toThrow(/ENOENT/)
    // Shards check against every scenario, not only their own: the first shard accepts an id of the second.
    await writeFile(
      sidecar,
      JSON.stringify({
        schema_version: '1.0',
        interventions: { run_011_cancel_corrected_authorization: [] },
      }),
    )
    const plan = await planRun(settings, {
      projectRoot: dir,
      now: NOW,
      runName: 'sharded',
      shard: { index: 1, count: 2 },
    })
    expect(plan.scenarioIds).not.toContain('run_011_cancel_corrected_authorization')
    await releaseUnusedRunDirectories(plan.runs)
  })

  test('RUN: an assistant-first prompt file that is missing or empty stops the run first, naming it', async () => {
    const { dir, env } = await scratch()
    const missing = loadSuiteSettings('run', RUN_CONFIG, {
      env: { ...env, LIVE_EVALS_ASSISTANT_FIRST_PROMPT_FILE: join(dir, 'opening.txt') },
    })
    await expect(planRun(missing, { projectRoot: dir, now: NOW })).rejects.toThrow(
      /simulation.assistant_first_prompt_file \(LIVE_EVALS_ASSISTANT_FIRST_PROMPT_FILE\) .*opening.txt: cannot be read \(ENOENT\)/,
    )
    await writeFile(join(dir, 'opening.txt'), '  \n')
    await expect(planRun(missing, { projectRoot: dir, now: NOW })).rejects.toThrow(/opening.txt: is empty/)
    await expect(readdir(join(dir, 'results'))).rejects.toThrow(/ENOENT/)
  })

  test('secrets never reach the configuration block', async () => {
    const { dir, env } = await scratch()
    const secret = 'sk-live-evals-sentinel-0123456789'
    const settings = loadSuiteSettings('crawl', CONFIG, {
      env: {
        ...env,
        OPENAI_ASSISTANT_MODE: 'client',
        OPENAI_CLIENT_ASSISTANT_TOKEN: secret,
        OPENAI_CLIENT_ASSISTANT_ENDPOINT: `https://app.example/hook?token=${secret}`,
      },
    })
    const plan = await planRun(settings, { projectRoot: dir, now: NOW })
    // The plan itself carries the settings (workers need the key live); the configuration block and the
    // stamp that test files carry into reports never do.
    expect(JSON.stringify(plan.runs)).not.toContain(secret)
    expect(JSON.stringify(runStampOf(plan))).not.toContain(secret)
    expect(plan.runs[0]?.metadata.configuration.assistant_endpoint).toBe(
      'https://app.example/hook?token=[redacted]',
    )
  })
})

describe('planRun with a remote client assistant', () => {
  test("the client run is labelled …_client_remote and says its tool evidence is the service's; responses is not", async () => {
    const { dir, env } = await scratch()
    const settings = loadSuiteSettings('crawl', CONFIG, {
      env: { ...env, OPENAI_CLIENT_ASSISTANT_ENDPOINT: 'https://app.example/assistant' },
    })
    const plan = await planRun(settings, { projectRoot: dir, now: NOW })
    expect(plan.runs.map((run) => run.name)).toEqual([
      'crawl_offline_responses_20260818_000000_000Z',
      'crawl_offline_client_remote_20260818_000000_000Z',
    ])
    const extensions = (run: { metadata: { configuration: Record<string, unknown> } }) =>
      (run.metadata.configuration.live_evals as Record<string, unknown> | undefined)?.tool_evidence
    expect(extensions(plannedRunFor(plan, 'client'))).toEqual({
      source: 'remote_service',
      architecture_only_comparison: false,
    })
    expect(extensions(plannedRunFor(plan, 'responses'))).toBeUndefined()
  })
})

describe('planRun for a shard of a named run', () => {
  test("registers only the shard's scenarios, in the run's shared folder, and stamps no settings", async () => {
    const { dir, env } = await scratch()
    const settings = loadSuiteSettings('crawl', CONFIG, { env: { ...env, OPENAI_ASSISTANT_MODE: 'client' } })
    const plan = await planRun(settings, {
      projectRoot: dir,
      runName: 'nightly',
      shard: { index: 2, count: 2 },
    })
    expect(plan.scenarioIds).toEqual(['fixture_hours'])
    expect(plan.runs[0]).toMatchObject({
      name: 'nightly_client',
      directory: join(dir, 'results', 'nightly_client'),
      resultsFile: 'results.shard-2-of-2.json',
      claim: join(dir, 'results', 'nightly_client', '.shard-2-of-2'),
    })
    const stamp = runStampOf(plan)
    expect(stamp).toMatchObject({
      runName: 'nightly',
      shard: { index: 2, count: 2 },
      scenarioIds: ['fixture_hours'],
    })
    expect(Object.keys(stamp)).not.toContain('settings')
    expect(Object.keys(stamp)).not.toContain('scenarios')
  })
})

describe('releaseUnusedRunDirectories', () => {
  test('removes the planned directories nothing was written into and keeps the others', async () => {
    const { dir, env } = await scratch()
    const plan = await planRun(loadSuiteSettings('crawl', CONFIG, { env }), { projectRoot: dir, now: NOW })
    const [used, unused] = plan.runs.map((run) => run.directory)
    await writeFile(join(used ?? '', 'results.json'), '{}')
    expect(await releaseUnusedRunDirectories(plan.runs)).toEqual([unused])
    expect(await readdir(join(dir, 'results'))).toEqual([basename(used ?? '')])
    // Released twice (a watch rerun, then the teardown): nothing left to do, no error.
    expect(await releaseUnusedRunDirectories(plan.runs)).toEqual([])
  })
})
