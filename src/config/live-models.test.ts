// Which models a run evaluates and at what concurrency each: from execution.models / LIVE_EVALS_MODELS and
// execution.model_concurrency / LIVE_EVALS_MODEL_CONCURRENCY, with the single-model default unchanged.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HarnessConfigError } from './errors.ts'
import { liveModelFamily, modelConcurrency, modelsToEvaluate, settingsForModel } from './live-models.ts'
import { loadPhaseConfig } from './load.ts'

const cwd = mkdtempSync(join(tmpdir(), 'live-models-'))
function toml(text: string): string {
  const path = join(cwd, `config-${Math.random().toString(36).slice(2)}.toml`)
  writeFileSync(path, text)
  return path
}
const load = (env: Record<string, string>, text = '') => loadPhaseConfig('crawl', toml(text), { env, cwd })

describe('the models a run evaluates', () => {
  it('is models.live_model alone by default, with execution.concurrency as its limit', () => {
    const settings = load({})
    expect(modelsToEvaluate(settings)).toEqual(['gpt-live-1'])
    expect(modelConcurrency(settings, 'gpt-live-1')).toBe(2)
    expect(settingsForModel(settings, 'gpt-live-1')).toEqual(settings)
  })

  it('reads LIVE_EVALS_MODELS as a comma-separated list, in order, each once', () => {
    const settings = load({ LIVE_EVALS_MODELS: 'gpt-live-1, gpt-live-1.1,gpt-live-1' })
    expect(modelsToEvaluate(settings)).toEqual(['gpt-live-1', 'gpt-live-1.1'])
    expect(settings.origins['execution.models']).toEqual({ source: 'env', variable: 'LIVE_EVALS_MODELS' })
  })

  it('reads execution.models and execution.model_concurrency from the TOML', () => {
    const settings = load(
      {},
      '[execution]\nconcurrency = 4\nmodels = ["gpt-live-1.1", "gpt-live-1"]\nmodel_concurrency = { "gpt-live-1.1" = 1 }\n',
    )
    expect(modelsToEvaluate(settings)).toEqual(['gpt-live-1.1', 'gpt-live-1'])
    expect(modelConcurrency(settings, 'gpt-live-1.1')).toBe(1)
    expect(modelConcurrency(settings, 'gpt-live-1')).toBe(4)
  })

  it('limits gpt-live-1.1 by its own default from the settings; LIVE_EVALS_MODEL_CONCURRENCY replaces the table', () => {
    expect(modelConcurrency(load({ LIVE_EVALS_CONCURRENCY: '5' }), 'gpt-live-1.1')).toBe(2)
    const set = load({
      LIVE_EVALS_CONCURRENCY: '8',
      LIVE_EVALS_MODEL_CONCURRENCY: 'gpt-live-1.1=3,gpt-live-1=6',
    })
    expect(modelConcurrency(set, 'gpt-live-1.1')).toBe(3)
    expect(modelConcurrency(set, 'gpt-live-1')).toBe(6)
    // execution.concurrency caps every model: a per-model limit only ever lowers it.
    const capped = load({ LIVE_EVALS_CONCURRENCY: '1', LIVE_EVALS_MODEL_CONCURRENCY: 'gpt-live-1.1=3' })
    expect(modelConcurrency(capped, 'gpt-live-1.1')).toBe(1)
  })

  it("gives one model's settings its model and its limit, and nothing else", () => {
    const settings = load({ LIVE_EVALS_MODELS: 'gpt-live-1,gpt-live-1.1', LIVE_EVALS_CONCURRENCY: '4' })
    const one = settingsForModel(settings, 'gpt-live-1.1')
    expect(one.models.live_model).toBe('gpt-live-1.1')
    expect(one.execution.concurrency).toBe(2)
    expect({ ...one, models: settings.models, execution: settings.execution }).toEqual(settings)
  })

  it.each([
    [{ LIVE_EVALS_MODEL_CONCURRENCY: 'gpt-live-1.1:3' }, 'must be comma-separated name=integer pairs'],
    [{ LIVE_EVALS_MODEL_CONCURRENCY: 'gpt-live-1.1=9' }, 'execution.model_concurrency.gpt-live-1.1'],
    [{ LIVE_EVALS_MODELS: ' , ' }, 'execution.models must name at least one model'],
  ])('refuses %j, naming the variable or key', (env, message) => {
    expect(() => load(env)).toThrow(HarnessConfigError)
    expect(() => load(env)).toThrow(message)
  })
})

describe('liveModelFamily', () => {
  it.each([
    ['gpt-live-1', 'gpt-live-1'],
    ['gpt-live-1.1', 'gpt-live-1.1'],
    ['gpt-live-1.1-2026-11-20', 'gpt-live-1.1'],
    ['gpt-live-1-2026-02-28', 'gpt-live-1'],
    ['gpt-live-1-2028-02-29', 'gpt-live-1'],
    ['gpt-live-1-2026-02-29', null],
    ['gpt-live-1.1-2026-13-01', null],
    ['gpt-live-2', null],
    ['gpt-live-2-2026-11-20', null],
    ['toString', null],
  ])('%s is %s', (id, family) => {
    expect(liveModelFamily(id)).toBe(family)
  })
})
