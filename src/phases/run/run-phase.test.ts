// The RUN phase through the engine, as a spec file's test runs it: one bundled conversation offline in each
// architecture gives a passed multi_turn row whose verdict, artifacts and details agree; the settings that are
// RUN's own (assistant-first prompt file, debug artifacts) take effect, and what cannot run fails at its stage.

import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { RunSettings } from '../../config/index.ts'
import { settingsForModel } from '../../config/live-models.ts'
import { scenarioFaultProfile } from '../../faults/scenario-profile.ts'
import { judgeOptions, passing, startFakeJudgeApi } from '../../grading/judge/judge.test-helpers.ts'
import { SEMANTIC_DIMENSIONS } from '../../grading/semantic-applicability.ts'
import { NO_ARTIFACTS } from '../../reporting/result-item.ts'
import { assistantVisibleInput, loadDataset } from '../../scenarios/index.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { architectureFor } from '../engine/architecture-choice.ts'
import type { ScenarioEnv } from '../engine/execution.ts'
import { runScenario } from '../engine/run-scenario.ts'
import { scenarioApplicationFor } from '../engine/scenario-application.ts'
import { freshRunDirectory } from '../single-turn/test-support.ts'
import {
  bundledRunScenario,
  BUNDLED_RUN_DATASET as DATASET,
  offlineRunSettings,
} from './conversation.test-helpers.ts'
import { RunDetailsSchema } from './details.ts'
import { runDriver } from './driver.ts'
import { assessRun } from './grader.ts'
import { runCallerSource, runPhase } from './index.ts'
import { loadInterventions } from './interventions/index.ts'

let server: OfflineLiveServer
const folders: string[] = []
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })))
})

const runSettings = (simulation: readonly string[] = []) => offlineRunSettings(DATASET, simulation)

async function envFor(
  settings: RunSettings,
  architecture: 'responses' | 'client',
): Promise<ScenarioEnv<RunSettings>> {
  const runDirectory = await freshRunDirectory()
  folders.push(runDirectory)
  return {
    settings,
    runDirectory,
    offlineServer: server,
    architecture: architectureFor(architecture, settings),
    callerSource: runCallerSource,
  }
}

async function execute(id: string, env: ScenarioEnv<RunSettings>) {
  const scenario = await bundledRunScenario(id)
  return runScenario(runPhase, scenario, env, { application: scenarioApplicationFor(env, scenario) })
}

describe.each(['responses', 'client'] as const)('RUN through the engine (%s)', (architecture) => {
  it('a booking with a missing name: passed multi_turn row, stereo conversation, details that agree', async () => {
    const env = await envFor(await runSettings(), architecture)
    const execution = await execute('run_002_booking_missing_name', env)
    expect(execution.interaction).toBe('multi_turn')
    expect(execution.failure).toBeNull()
    const { row } = execution
    expect(row.status, JSON.stringify(row.assessment)).toBe('passed')
    expect(row.metrics.task.tool_calls).toEqual({ actual: 1, expected: 1 })
    expect(row.metrics.task.semantic_quality).toEqual({ score: null, dimensions: {} })
    expect(row.validity).toMatchObject({ status: 'valid', scope: 'frontend_only_caller_delegation' })
    expect(row.observability?.interaction).toMatchObject({
      mode: 'multi_turn',
      audio_source: 'dual_gpt_live',
      caller_mode: 'offline_fixture',
    })
    expect(row.observability?.live_evals).toMatchObject({
      run_turns: { barge_ins: { exercised: 0, unexercised: 0 }, yield_rate: null },
    })
    // The conversation is one stereo WAV: caller left, assistant right.
    const wav = await readFile(join(env.runDirectory, row.artifacts.conversation_audio as string))
    expect(wav.readUInt16LE(22)).toBe(2)
    const details = RunDetailsSchema.parse(
      JSON.parse(await readFile(join(env.runDirectory, row.artifacts.details as string), 'utf8')),
    )
    expect(details.caller_utterances.map((line) => line.action)).toEqual([
      'OPENING',
      'SPEAK',
      'SPEAK',
      'STOP',
    ])
    expect(details.assessment).toEqual(execution.grade?.assessment)
    expect(details.termination_reason).toBe('response_completed')
    expect(details.debug_artifacts).toBeNull()
    const transcript = await readFile(
      join(env.runDirectory, row.artifacts.conversation_transcript as string),
      'utf8',
    )
    expect(transcript).toContain('CALLER: Sure, put it under Okafor.')
    const events = await readFile(join(env.runDirectory, row.artifacts.events as string), 'utf8')
    expect(events).toContain('"type":"session.started"')
    expect(events).toContain('simulator.caller.utterance')
  }, 120_000)
})

describe('RUN settings and failures', () => {
  it('debug artifacts: one tick line per step and one turn line per voiced turn', async () => {
    const env = await envFor(await runSettings(['debug_artifacts = true']), 'responses')
    const execution = await execute('run_007_cancel_authorized', env)
    const details = RunDetailsSchema.parse(
      JSON.parse(await readFile(join(env.runDirectory, execution.row.artifacts.details as string), 'utf8')),
    )
    expect(details.debug_artifacts).toEqual({
      ticks: 'debug/run_007_cancel_authorized/ticks.jsonl',
      turns: 'debug/run_007_cancel_authorized/turns.jsonl',
    })
    const ticks = (await readFile(join(env.runDirectory, details.debug_artifacts?.ticks as string), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(ticks[1]).toMatchObject({ tick_ms: 100 })
    expect(ticks.some((tick) => tick.assistant_voiced)).toBe(true)
    expect(ticks.some((tick) => tick.caller_utterance?.action === 'OPENING')).toBe(true)
    const turns = (await readFile(join(env.runDirectory, details.debug_artifacts?.turns as string), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(new Set(turns.map((turn) => turn.speaker))).toEqual(new Set(['caller', 'assistant']))
  }, 120_000)

  it('execution.verbose: the account of the call goes to the print option (its test’s console), not console.log', async () => {
    const base = await runSettings()
    const env = await envFor({ ...base, execution: { ...base.execution, verbose: true } }, 'responses')
    const scenario = await bundledRunScenario('run_002_booking_missing_name')
    const printed: string[] = []
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      await runScenario(runPhase, scenario, env, {
        application: scenarioApplicationFor(env, scenario),
        print: (text) => printed.push(text),
      })
      expect(log).not.toHaveBeenCalled()
    } finally {
      log.mockRestore()
    }
    expect(printed).toHaveLength(1)
    expect(printed[0]).toContain('── run_002_booking_missing_name (responses assistant, RUN)')
    expect(printed[0]).toMatch(/\[\d\d:\d\d\.\d{3}\] CALLER {4}\S/)
  })

  it('assistant first: the prompt file is spoken before the caller opens', async () => {
    const folder = await freshRunDirectory()
    folders.push(folder)
    const prompt = join(folder, 'opening.txt')
    await writeFile(prompt, 'Greet the caller as Juniper Table and ask how you can help.')
    const env = await envFor(
      await runSettings([`assistant_first_prompt_file = ${JSON.stringify(prompt)}`]),
      'client',
    )
    const execution = await execute('run_001_booking_complete', env)
    expect(execution.row.status, JSON.stringify(execution.row.assessment)).toBe('passed')
    const details = RunDetailsSchema.parse(
      JSON.parse(await readFile(join(env.runDirectory, execution.row.artifacts.details as string), 'utf8')),
    )
    const firstAssistant = details.transcript.find((line) => line.role === 'assistant')
    expect(firstAssistant?.startMs).toBeLessThan(details.caller_utterances[0]?.start_ms ?? 0)
  }, 120_000)

  it('a missing prompt file fails the scenario at input_setup, naming the setting and the file', async () => {
    const env = await envFor(
      await runSettings(['assistant_first_prompt_file = "/nonexistent/opening.txt"']),
      'responses',
    )
    const execution = await execute('run_001_booking_complete', env)
    expect(execution.row.status).toBe('infrastructure_error')
    expect(execution.row.error).toMatchObject({ stage: 'input_setup' })
    expect(execution.row.error?.message).toContain(
      'simulation.assistant_first_prompt_file (LIVE_EVALS_ASSISTANT_FIRST_PROMPT_FILE) /nonexistent/opening.txt: cannot be read (ENOENT)',
    )
    expect(execution.row.metrics.task.tool_calls).toBeNull()
  })

  it('execution.faults runs the call under its profile: injected, recorded on the row and scored', async () => {
    const settings = await runSettings()
    const faulted = { ...settings, execution: { ...settings.execution, faults: 'backend-down' as const } }
    const env = {
      ...(await envFor(faulted, 'responses')),
      faults: scenarioFaultProfile({ id: 'x', tags: [] }, 'backend-down'),
    }
    const execution = await execute('run_001_booking_complete', env)
    // The scenario expects a booking; with every booking failing, its state check fails the row (a real verdict).
    expect(execution.row.status).toBe('failed')
    expect(execution.row.assessment?.checks).toContainEqual(
      expect.objectContaining({ id: 'application_state', status: 'failed' }),
    )
    const extensions = execution.row.observability?.live_evals
    expect(extensions?.faults).toMatchObject({
      profile: 'backend-down',
      seed: 1,
      source: 'setting',
      classes: ['error'],
    })
    expect(extensions?.faults?.injected[0]).toMatchObject({
      kind: 'error',
      plane: 'tool',
      target: 'create_reservation',
      index: 0,
    })
    expect(extensions?.checks).toContainEqual(
      expect.objectContaining({ id: 'no_false_confirmation', status: 'passed', required: true }),
    )
    const observation = execution.observation
    expect(observation?.tool_executions[0]?.fault).toMatchObject({ kind: 'error', profile: 'backend-down' })
  })

  it('without the offline server the scenario fails at connection, and nothing crashes', async () => {
    const env = { ...(await envFor(await runSettings(), 'responses')), offlineServer: null }
    const execution = await execute('run_001_booking_complete', env)
    expect(execution.row.status).toBe('infrastructure_error')
    expect(execution.row.error).toMatchObject({ stage: 'connection' })
  })

  it('a live run configuration names the caller’s own model, whatever model is under test', async () => {
    const settings = await runSettings()
    const live = settingsForModel(
      { ...settings, execution: { ...settings.execution, mode: 'live' as const } },
      'gpt-live-1.1',
    )
    expect(runPhase.configuration(live, 'responses')).toMatchObject({
      model: 'gpt-live-1.1',
      simulator_model: 'gpt-live-1',
    })
    const chosen = { ...live, simulation: { ...live.simulation, simulator_model: 'gpt-live-1.1-2026-11-20' } }
    expect(runPhase.configuration(chosen, 'responses')).toMatchObject({
      simulator_model: 'gpt-live-1.1-2026-11-20',
    })
  })

  it('the run configuration names the first speaker and leaves the offline simulator unset', async () => {
    const settings = await runSettings()
    expect(runPhase.configuration(settings, 'client')).toMatchObject({
      first_speaker: 'caller',
      simulator_model: null,
      simulator_voice: null,
      simulator_backend_model: null,
      tick_ms: 100,
      metrics_version: '2.0',
      audio_condition: 'clean',
    })
  })
})

describe('RUN and the semantic judge', () => {
  it('a judged conversation: the row carries the semantic quality and the details the judge part', async () => {
    const api = await startFakeJudgeApi()
    try {
      for (const dimension of SEMANTIC_DIMENSIONS) {
        api.script[dimension] = [dimension === 'task_understanding' ? passing(1, true) : passing(0.75)]
      }
      const env = { ...(await envFor(await runSettings(), 'responses')), judge: judgeOptions(api) }
      const execution = await execute('run_004_date_correction', env)
      expect(execution.row.status, JSON.stringify(execution.row.assessment)).toBe('passed')
      expect(execution.row.metrics.task.semantic_quality.score).not.toBeNull()
      expect(execution.grade?.semantic_grades.task_understanding.status).toBe('passed')
      const details = RunDetailsSchema.parse(
        JSON.parse(await readFile(join(env.runDirectory, execution.row.artifacts.details as string), 'utf8')),
      )
      expect(details.semantic_judge).toMatchObject({ assessed: true })
      expect(details.judge_usage_events.length).toBe(api.server.requestsTo('POST', '/v1/responses').length)
    } finally {
      await api.close()
    }
  }, 120_000)

  it('an invalid caller simulation is never judged, and its row is an infrastructure_error at caller_simulation', async () => {
    const api = await startFakeJudgeApi()
    try {
      const env = { ...(await envFor(await runSettings(), 'client')), judge: judgeOptions(api) }
      const scenario = await bundledRunScenario('run_007_cancel_authorized')
      const application = env.architecture.createApplication(assistantVisibleInput(scenario))
      const open = await runDriver.open(scenario, env, await runCallerSource.prepare(scenario, {}), {
        application,
      })
      const observed = await open.run()
      const invalid = {
        ...observed,
        validity: {
          ...observed.validity,
          status: 'invalid' as const,
          target_metrics_eligible: false,
          reason: 'unsupported_caller_delegation' as const,
          unexpected_delegation_count: 1,
          delegation_ids: ['del_caller_1'],
        },
      }
      const assessed = await assessRun(scenario, invalid, env)
      expect(assessed.semantic.judgement).toBeNull()
      expect(api.server.requestsTo('POST', '/v1/responses')).toHaveLength(0)
      const execution = await runPhase.grader.grade(
        scenario,
        env,
        await runCallerSource.prepare(scenario, {}),
        invalid,
        { ...NO_ARTIFACTS },
        {},
      )
      expect(execution.row.status).toBe('infrastructure_error')
      expect(execution.row.error).toEqual({
        stage: 'caller_simulation',
        message:
          'Caller simulation is invalid (unsupported_caller_delegation); target metrics are diagnostic only.',
      })
      expect(execution.row.validity).toMatchObject({ status: 'invalid', unexpected_delegation_count: 1 })
      // The measured metrics stay as diagnostics.
      expect(execution.row.metrics.task.tool_calls).toEqual({ actual: 1, expected: 1 })
    } finally {
      await api.close()
    }
  }, 120_000)
})

describe('RUN with a scheduled-interventions sidecar', () => {
  it('the sidecar reaches the call: one barge-in exercised and yielded, its outcome in the row and the details', async () => {
    const folder = await freshRunDirectory()
    folders.push(folder)
    const file = join(folder, 'interventions.json')
    await writeFile(
      file,
      JSON.stringify({
        schema_version: '1.0',
        interventions: {
          run_001_booking_complete: [
            {
              id: 'cut',
              kind: 'barge_in',
              text: 'Wait, is that for two?',
              trigger: { while_assistant_speaking_ms: 1500 },
            },
          ],
        },
      }),
    )
    const settings = await runSettings([`interventions_file = ${JSON.stringify(file)}`])
    const dataset = await loadDataset(DATASET)
    const schedule = await loadInterventions(
      settings.simulation.interventions_file,
      dataset.scenarios.map((scenario) => scenario.id),
    )
    const env = { ...(await envFor(settings, 'responses')), interventions: schedule }
    const execution = await execute('run_001_booking_complete', env)
    expect(execution.row.observability?.live_evals).toMatchObject({
      run_turns: { barge_ins: { exercised: 1, unexercised: 0 }, yield_rate: 1 },
    })
    const details = RunDetailsSchema.parse(
      JSON.parse(await readFile(join(env.runDirectory, execution.row.artifacts.details as string), 'utf8')),
    )
    expect(details.interventions).toEqual([
      expect.objectContaining({ id: 'cut', kind: 'barge_in', exercised: true, yielded: true }),
    ])
    expect(details.caller_utterances.some((line) => line.text === 'Wait, is that for two?')).toBe(true)
    // The other scenarios of the file have none.
    const other = await execute('run_007_cancel_authorized', env)
    const otherDetails = RunDetailsSchema.parse(
      JSON.parse(await readFile(join(env.runDirectory, other.row.artifacts.details as string), 'utf8')),
    )
    expect(otherDetails.interventions).toEqual([])
  }, 120_000)
})

describe('RUN under an acoustic preset', () => {
  it('telephony on the caller voice: the call still passes, the caller track is processed, turns come from the clean voice', async () => {
    const clean = await envFor(await runSettings(), 'responses')
    const phone = await envFor(await runSettings(['condition = "telephony"']), 'responses')
    const [plain, processed] = [
      await execute('run_003_booking_missing_time', clean),
      await execute('run_003_booking_missing_time', phone),
    ]
    expect(processed.row.status, JSON.stringify(processed.row.assessment)).toBe('passed')
    const input = async (env: ScenarioEnv<RunSettings>, row: typeof plain.row) =>
      readFile(join(env.runDirectory, row.artifacts.input_audio as string))
    expect((await input(phone, processed.row)).equals(await input(clean, plain.row))).toBe(false)
    // The same requests are counted whatever the line did to the caller's voice.
    expect(processed.row.metrics.audio.response_opportunities).toEqual(
      plain.row.metrics.audio.response_opportunities,
    )
  }, 120_000)

  it('an unknown condition: the settings refuse it by name, and settings built in code fail at input_setup', async () => {
    await expect(runSettings(['condition = "underwater"'])).rejects.toThrow(
      /simulation.condition must be one of "clean", "noisy", "telephony"/,
    )
    const settings = await runSettings()
    const env = await envFor(
      { ...settings, simulation: { ...settings.simulation, condition: 'underwater' as 'clean' } },
      'client',
    )
    const execution = await execute('run_001_booking_complete', env)
    expect(execution.row.error).toMatchObject({ stage: 'input_setup' })
    expect(execution.row.error?.message).toMatch(/acoustic preset cannot be applied.*underwater.*telephony/)
  })
})

describe('the offline self-checks fail the row', () => {
  it('a caller line that says its stage direction makes the call an infrastructure_error at caller_simulation', async () => {
    const env = await envFor(await runSettings(), 'responses')
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const goodbye = scenario.simulation_parameters?.agenda.find((item) => item.action === 'finish')
    if (goodbye === undefined) throw new Error('no finish item')
    goodbye.response_hint = goodbye.commitment
    const execution = await runScenario(runPhase, scenario, env, {
      application: env.architecture.createApplication(assistantVisibleInput(scenario)),
    })
    expect(execution.row.status).toBe('infrastructure_error')
    expect(execution.row.error?.stage).toBe('caller_simulation')
    expect(execution.row.error?.message).toContain(`stage direction ${JSON.stringify(goodbye.commitment)}`)
  }, 60_000)
})

describe('a call cut off mid-utterance', () => {
  it('is recorded as such: its last assistant line is marked cut in the details, and the row cannot pass', async () => {
    // The limit falls while the assistant is confirming the booking.
    const env = await envFor(await runSettings(['max_duration_seconds = 7.0']), 'responses')
    const execution = await execute('run_001_booking_complete', env)
    expect(execution.row.status).not.toBe('passed')
    expect(execution.row.error?.message).toContain('the call ended while the assistant was still talking')
    const details = RunDetailsSchema.parse(
      JSON.parse(await readFile(join(env.runDirectory, execution.row.artifacts.details as string), 'utf8')),
    )
    const last = details.transcript.findLast((line) => line.role === 'assistant')
    expect(last?.cut).toBe(true)
    expect(last?.text).not.toMatch(/[.!?]$/)
    expect(details.transcript.filter((line) => line.cut === true)).toHaveLength(1)
  }, 60_000)
})
