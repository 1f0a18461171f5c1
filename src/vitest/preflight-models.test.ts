// The live preflight checks every GPT-Live model a run opens sessions with: each model of execution.models, and RUN's
// caller model. Against the offline GPT-Live server on loopback, which refuses an unknown model the way the service
// does (model_not_found on session.model): each refused model is one line naming the setting that chose it.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { HarnessConfigError, type Phase } from '../config/index.ts'
import { settingsFromToml } from '../phases/single-turn/test-support.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../testing/live-server/index.ts'
import { assertLiveEndpointsAnswer, liveModelsFor } from './preflight.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer({ acceptAnyToken: true })
  // The HTTP model lookups (RUN's Responses API) go to the same loopback server, never the internet.
  vi.stubEnv('OPENAI_BASE_URL', server.baseURL)
})
afterAll(async () => {
  vi.unstubAllEnvs()
  await server.close()
})

/** Live settings of a phase against the offline server, the judge off (WALK then needs no HTTP endpoint). */
function liveSettings(phase: Phase, env: Record<string, string>) {
  return settingsFromToml(phase, ['[execution]', 'mode = "live"', '[grading]', 'enabled = false'], {
    OPENAI_API_KEY: 'sk-test-preflight-models',
    OPENAI_LIVE_ENDPOINT: server.baseURL,
    OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK: '1',
    OPENAI_ASSISTANT_MODE: 'responses',
    ...env,
  })
}

async function refusal(phase: Phase, env: Record<string, string>): Promise<readonly string[]> {
  try {
    await assertLiveEndpointsAnswer(await liveSettings(phase, env))
  } catch (error) {
    if (error instanceof HarnessConfigError) return error.problems
    throw error
  }
  return []
}

describe('the GPT-Live models a live run opens sessions with', () => {
  test('the models under test, then RUN’s caller model when it is another, each once', async () => {
    expect(liveModelsFor(await liveSettings('crawl', {}))).toEqual([
      { model: 'gpt-live-1', setting: 'models.live_model (OPENAI_LIVE_MODEL)' },
    ])
    const matrix = { LIVE_EVALS_MODELS: 'gpt-live-1,gpt-live-1.1' }
    expect(liveModelsFor(await liveSettings('walk', matrix)).map((use) => use.model)).toEqual([
      'gpt-live-1',
      'gpt-live-1.1',
    ])
    // RUN's caller is gpt-live-1 by default: already a model under test, so it is not opened twice.
    expect(liveModelsFor(await liveSettings('run', matrix)).map((use) => use.model)).toEqual([
      'gpt-live-1',
      'gpt-live-1.1',
    ])
    expect(liveModelsFor(await liveSettings('run', { OPENAI_LIVE_MODEL: 'gpt-live-1.1' })).at(-1)).toEqual({
      model: 'gpt-live-1',
      setting: 'simulation.simulator_model (LIVE_EVALS_SIMULATOR_MODEL)',
    })
  })
})

describe('the live preflight of a model matrix', () => {
  test('passes when the endpoint starts a session with every model', async () => {
    expect(await refusal('walk', { LIVE_EVALS_MODELS: 'gpt-live-1,gpt-live-1.1-2026-11-20' })).toEqual([])
  })

  test('names each model the endpoint refused, wherever it stands in the list, and the setting to change', async () => {
    const problems = await refusal('walk', { LIVE_EVALS_MODELS: 'gpt-live-9,gpt-live-1.1,gpt-live-1.5' })
    expect(problems).toHaveLength(2)
    for (const [index, model] of ['gpt-live-9', 'gpt-live-1.5'].entries()) {
      expect(problems[index]).toMatch(
        new RegExp(
          `^live preflight: GPT-Live at ws://127\\.0\\.0\\.1:\\d+/v1/live/sessions refused the model "${model.replaceAll('.', '\\.')}" \\(server error model_not_found: .+\\); check execution\\.models \\(LIVE_EVALS_MODELS\\)$`,
        ),
      )
    }
  })

  test('a single model the endpoint refuses names OPENAI_LIVE_MODEL', async () => {
    const problems = await refusal('walk', { OPENAI_LIVE_MODEL: 'gpt-live-2' })
    expect(problems).toEqual([expect.stringContaining('refused the model "gpt-live-2"')])
    expect(problems[0]).toMatch(/check models\.live_model \(OPENAI_LIVE_MODEL\)$/)
  })

  test("RUN checks the simulated caller's model too", async () => {
    const problems = await refusal('run', { LIVE_EVALS_SIMULATOR_MODEL: 'gpt-live-caller' })
    expect(problems).toEqual([expect.stringContaining('refused the model "gpt-live-caller"')])
    expect(problems[0]).toMatch(/check simulation\.simulator_model \(LIVE_EVALS_SIMULATOR_MODEL\)$/)
  })

  test('an endpoint that refuses every session is said once, not once per model', async () => {
    const problems = await refusal('walk', {
      LIVE_EVALS_MODELS: 'gpt-live-1,gpt-live-1.1',
      OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK: '0',
    })
    expect(problems).toEqual([expect.stringMatching(/^live preflight: GPT-Live at .+ was not dialled: /)])
  })
})
