// One run per (model, architecture) when execution.models names several; a single model, listed or by default,
// keeps the folder names and run blocks of a run without the setting.
import { mkdtemp, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { RunPlanProblem } from './plugin/run-plan-problem.ts'
import { plannedModels, plannedRunFor, planRun } from './run-plan.ts'
import { loadSuiteSettings } from './settings.ts'

const CONFIG = join(resolve(import.meta.dirname, 'fixtures'), 'crawl.toml')
const NOW = new Date(Date.UTC(2026, 11, 2, 0, 0, 0, 0))

async function scratch(extra: Record<string, string> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'live-evals-models-'))
  const envFile = join(dir, 'empty.env')
  await writeFile(envFile, '')
  const env = { LIVE_EVALS_ENV_FILE: envFile, LIVE_EVALS_RESULTS_DIR: join(dir, 'results'), ...extra }
  return { dir, settings: loadSuiteSettings('crawl', CONFIG, { env }) }
}

describe('planRun with models', () => {
  test.each([
    ['no execution.models', {}],
    ['execution.models naming the default model alone', { LIVE_EVALS_MODELS: 'gpt-live-1' }],
  ])('%s: the same folders, names and run blocks as always', async (_, extra) => {
    const { dir, settings } = await scratch(extra)
    const plan = await planRun(settings, { projectRoot: dir, now: NOW })
    expect(plan.runs.map((run) => run.name)).toEqual([
      'crawl_offline_responses_20261202_000000_000Z',
      'crawl_offline_client_20261202_000000_000Z',
    ])
    expect(plan.runs.every((run) => run.multiModel === false)).toBe(true)
    expect(plannedModels(plan)).toEqual(['gpt-live-1'])
    expect(plannedRunFor(plan, 'client').metadata.configuration).toMatchObject({
      model: 'gpt-live-1',
      concurrency: 1,
    })
  })

  test('a named run of two models gets <name>_<model>_<architecture> folders, model by model', async () => {
    const { dir, settings } = await scratch({ LIVE_EVALS_MODELS: 'gpt-live-1,gpt-live-1.1' })
    const plan = await planRun(settings, { projectRoot: dir, now: NOW, runName: 'nightly' })
    expect(plan.runs.map((run) => [run.model, run.architecture, run.name])).toEqual([
      ['gpt-live-1', 'responses', 'nightly_gpt-live-1_responses'],
      ['gpt-live-1', 'client', 'nightly_gpt-live-1_client'],
      ['gpt-live-1.1', 'responses', 'nightly_gpt-live-1.1_responses'],
      ['gpt-live-1.1', 'client', 'nightly_gpt-live-1.1_client'],
    ])
    expect((await readdir(join(dir, 'results'))).sort()).toEqual(plan.runs.map((run) => run.name).sort())
  })

  test('each model run records its model and its own concurrency in run.configuration', async () => {
    const { dir, settings } = await scratch({
      LIVE_EVALS_MODELS: 'gpt-live-1,gpt-live-1.1',
      LIVE_EVALS_CONCURRENCY: '4',
      LIVE_EVALS_MODEL_CONCURRENCY: 'gpt-live-1.1=3',
    })
    const plan = await planRun(settings, { projectRoot: dir, now: NOW })
    expect(plan.runs.map((run) => run.name)).toEqual([
      'crawl_offline_gpt-live-1_responses_20261202_000000_000Z',
      'crawl_offline_gpt-live-1_client_20261202_000000_000Z',
      'crawl_offline_gpt-live-1.1_responses_20261202_000000_000Z',
      'crawl_offline_gpt-live-1.1_client_20261202_000000_000Z',
    ])
    expect(plannedRunFor(plan, 'responses', 'gpt-live-1.1').metadata.configuration).toMatchObject({
      model: 'gpt-live-1.1',
      concurrency: 3,
    })
    expect(plannedRunFor(plan, 'responses', 'gpt-live-1').metadata.configuration).toMatchObject({
      model: 'gpt-live-1',
      concurrency: 4,
    })
    expect(() => plannedRunFor(plan, 'client', 'gpt-live-2')).toThrow(/client architecture on gpt-live-2/)
  })

  test('offline, a model the offline server does not serve stops the plan with one message naming it', async () => {
    const { dir, settings } = await scratch({ LIVE_EVALS_MODELS: 'gpt-live-1,gpt-live-11' })
    const refused = planRun(settings, { projectRoot: dir, now: NOW })
    await expect(refused).rejects.toThrow(RunPlanProblem)
    await expect(refused).rejects.toThrow(
      'execution.models (LIVE_EVALS_MODELS): "gpt-live-11" is not a GPT-Live model (gpt-live-1, gpt-live-1.1, ' +
        'or a dated snapshot such as gpt-live-1.1-2026-11-20)',
    )
    await expect(readdir(join(dir, 'results'))).rejects.toThrow()
    const single = await scratch({ OPENAI_LIVE_MODEL: 'gpt-live' })
    await expect(planRun(single.settings, { projectRoot: single.dir, now: NOW })).rejects.toThrow(
      /^models\.live_model \(OPENAI_LIVE_MODEL\): "gpt-live" is not a GPT-Live model/,
    )
    // A dated snapshot is served.
    const dated = await scratch({ LIVE_EVALS_MODELS: 'gpt-live-1,gpt-live-1.1-2026-11-20' })
    expect((await planRun(dated.settings, { projectRoot: dated.dir, now: NOW })).runs).toHaveLength(4)
  })

  test('a model id that cannot name a folder stops the plan before any folder is made', async () => {
    const { dir, settings } = await scratch({ LIVE_EVALS_MODELS: 'gpt-live-1,../escape' })
    await expect(planRun(settings, { projectRoot: dir, now: NOW })).rejects.toThrow(RunPlanProblem)
    await expect(readdir(join(dir, 'results'))).rejects.toThrow()
  })
})
