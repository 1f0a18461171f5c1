// The live RUN options from the settings: the run's key and endpoint for both sessions, the caller's brief and
// backend, the observer only with semantic drain, the preset, 20 ms frames on the real-time clock; and what
// cannot run live fails the scenario at its stage before any session opens.
import { describe, expect, it } from 'vitest'
import type { RunSettings } from '../../config/index.ts'
import { assistantVisibleInput } from '../../scenarios/index.ts'
import { architectureFor } from '../engine/architecture-choice.ts'
import type { ScenarioEnv } from '../engine/execution.ts'
import { runScenario } from '../engine/run-scenario.ts'
import { freshRunDirectory, settingsFromToml } from '../single-turn/test-support.ts'
import { bundledRunScenario } from './conversation.test-helpers.ts'
import { runCallerSource, runPhase } from './index.ts'
import { InterventionSchema } from './interventions/index.ts'
import { LIVE_TICK_MS, liveConversationOptions } from './live-options.ts'

const liveSettings = (extra: readonly string[] = [], env: Record<string, string> = {}) =>
  settingsFromToml(
    'run',
    ['[execution]', 'mode = "live"', '[simulation]', 'condition = "telephony"', 'seed = 11', ...extra],
    { OPENAI_API_KEY: 'sk-live-test', OPENAI_LIVE_ENDPOINT: 'wss://live.example.test/v1', ...env },
  )

describe('liveConversationOptions', () => {
  it('both sessions use the run key and endpoint; the caller gets its brief and backend, the observer its facts', async () => {
    const settings = await liveSettings()
    const scenario = await bundledRunScenario('run_004_date_correction')
    const architecture = architectureFor('responses', settings)
    const application = architecture.createApplication(assistantVisibleInput(scenario))
    const options = liveConversationOptions(scenario, { settings, architecture }, application, null)
    expect(options.connections.assistant).toEqual(options.connections.caller)
    expect(options.connections.caller).toMatchObject({
      apiKey: 'sk-live-test',
      baseURL: 'wss://live.example.test/v1',
    })
    expect(options.clock).toEqual({ mode: 'real_time', tickMs: LIVE_TICK_MS })
    expect(options.preset).toMatchObject({ condition: 'telephony', seed: 11 })
    expect(options.callerBackend).toEqual({ model: 'gpt-5.6-luna', reasoningEffort: 'low' })
    expect(options.observer).toMatchObject({ model: 'gpt-5.6-terra', timeoutMs: 8_000 })
    expect(options.assistantFirstPrompt).toBeNull()
    // The caller's brief is the caller's: its goal and plan are there, the expected state and procedure are not.
    const brief = JSON.stringify(options.brief)
    expect(brief).toContain(scenario.simulation_parameters?.goal)
    expect(brief).not.toContain(JSON.stringify(scenario.expected.state))
    expect(options.observerFacts.expected_application_state).toEqual(scenario.expected.state)
    // The assistant sees only its visible input.
    expect(JSON.stringify(options.visibleInput)).not.toContain(scenario.simulation_parameters?.goal)
  })

  it('without semantic drain there is no observer (the fallback rule decides)', async () => {
    const settings = await liveSettings(['semantic_drain = false'])
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const architecture = architectureFor('client', settings)
    const application = architecture.createApplication(assistantVisibleInput(scenario))
    expect(
      liveConversationOptions(scenario, { settings, architecture }, application, 'Hi').observer,
    ).toBeNull()
  })
})

describe('live RUN failures before any session', () => {
  async function execute(
    settings: Awaited<ReturnType<typeof liveSettings>>,
    id: string,
    interventions = false,
  ) {
    const scenario = await bundledRunScenario(id)
    const architecture = architectureFor('responses', settings)
    const env: ScenarioEnv<RunSettings> = {
      settings,
      runDirectory: await freshRunDirectory(),
      offlineServer: null,
      architecture,
      callerSource: runCallerSource,
      ...(interventions
        ? {
            interventions: new Map([
              [
                id,
                [
                  InterventionSchema.parse({
                    id: 'cut',
                    kind: 'barge_in',
                    text: 'Wait.',
                    trigger: { at_ms: 5_000 },
                  }),
                ],
              ],
            ]),
          }
        : {}),
    }
    return runScenario(runPhase, scenario, env, {
      application: architecture.createApplication(assistantVisibleInput(scenario)),
    })
  }

  it('scheduled interventions are refused live, naming the setting', async () => {
    const execution = await execute(await liveSettings(), 'run_001_booking_complete', true)
    expect(execution.row.error).toMatchObject({ stage: 'input_setup' })
    expect(execution.row.error?.message).toContain('simulation.interventions_file')
  })

  it('a live run without a key fails at connection and says how to run offline', async () => {
    const settings = {
      ...(await liveSettings()),
      credentials: { openai_api_key: null, responses_api_key: null, client_assistant_token: null },
    }
    const execution = await execute(settings, 'run_001_booking_complete')
    expect(execution.row.error).toMatchObject({ stage: 'connection' })
    expect(execution.row.error?.message).toContain('LIVE_EVALS_MODE=offline')
  })
})
