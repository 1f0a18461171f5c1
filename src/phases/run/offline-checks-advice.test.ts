// A user's own assistant offline (defineAssistant with offline rules), through the whole RUN phase: when an offline
// self-check breaks, the infrastructure error still stands (stage caller_simulation), and its message says what to
// change. A rule whose `when` also matches the caller's follow-up made the refill twice: the message names the
// assistant's offline rules. A short simulation.max_duration_seconds cut the assistant mid-answer: the message names
// the setting, and so does the grade's failed conversation_completed check.
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { responsesDelegation } from '../../assistants/architectures/responses.ts'
import { defineAssistant } from '../../define/assistant.ts'
import { inlineDataset } from '../../define/scenario.ts'
import type { Scenario } from '../../scenarios/index.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { offlineRunSettings } from './conversation.test-helpers.ts'
import { executeOfflineRun } from './engine-run.test-helpers.ts'

let server: OfflineLiveServer
const folders: string[] = []
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })))
})

const LONG_ANSWER =
  'Thank you for calling Maple Pharmacy. Our pharmacists are on duty every day from eight in the morning until ' +
  'nine at night, refills are usually ready within two hours, and you can pick them up at the front counter or ' +
  'ask us to deliver them to your home at no extra cost for any order placed before six in the evening.'

const maplePharmacy = defineAssistant({
  name: 'maple-pharmacy',
  instructions: 'You answer the phone for Maple Pharmacy. Refills go to the backend.',
  backendInstructions: 'Request refills with the tool.',
  tools: [
    {
      name: 'request_refill',
      parameters: {
        type: 'object',
        properties: { rx_number: { type: 'string' } },
        required: ['rx_number'],
      },
      execute(args, { state }) {
        const refills = state.refills as { rx_number: string }[]
        refills.push({ rx_number: String(args.rx_number) })
        return { ok: true, rx_number: String(args.rx_number) }
      },
    },
  ],
  offline: {
    rules: [
      // Too broad on purpose: "refill" is also in the caller's follow-up question.
      {
        when: /refill/i,
        call: { name: 'request_refill', arguments: { rx_number: '55555' } },
        answer: 'Your refill is requested.',
      },
      { when: /hours/i, say: LONG_ANSWER },
    ],
    fallback: 'Okay.',
  },
})

function callScenario(id: string, opening: string, followUp: string): Scenario {
  const [scenario] = inlineDataset(
    [
      {
        id,
        title: 'A call to the pharmacy',
        type: 'task_request',
        interaction: 'multi_turn',
        input: { text: opening },
        application: { initial_state: { refills: [] } },
        expected: {
          answer: 'The refill is requested.',
          tools: { required: [{ name: 'request_refill', arguments: { rx_number: '55555' } }] },
          delegation: 'optional',
          state: { refills: [{ rx_number: '55555' }] },
          golden_path: { turns: 7, delegations: 1 },
        },
        simulation_parameters: {
          goal: 'Get prescription 55555 refilled.',
          known_facts: { rx_number: '55555' },
          agenda: [
            {
              id: 'follow_up',
              commitment: 'Ask about what the assistant said.',
              trigger_condition: 'after the assistant answers the request',
              completion_condition: 'The assistant has answered the question.',
              action: 'answer',
              response_hint: followUp,
            },
            {
              id: 'wrap_up',
              commitment: 'Say that this was everything.',
              trigger_condition: 'once the question is answered',
              completion_condition: 'The caller has said it needs nothing else.',
              action: 'answer',
              response_hint: 'Okay, that is everything for today.',
              after: ['follow_up'],
            },
            {
              id: 'say_goodbye',
              commitment: 'Thank the assistant and end the call.',
              trigger_condition: 'once the assistant answered',
              completion_condition: 'The caller has said goodbye.',
              action: 'finish',
              response_hint: 'Thanks, goodbye.',
              after: ['wrap_up'],
            },
          ],
        },
      },
    ],
    import.meta.filename,
  ) as Scenario[]
  return scenario as Scenario
}

async function run(scenario: Scenario, simulation: readonly string[]) {
  const settings = await offlineRunSettings(undefined, simulation)
  const architecture = responsesDelegation(maplePharmacy)
  return (await executeOfflineRun(scenario, { server, settings, architecture, folders })).execution
}

describe('offline RUN self-checks say what to change', () => {
  it('a double call made by the assistant’s own offline rules names those rules and their `when`', async () => {
    const execution = await run(
      callScenario(
        'refill_twice',
        'Hi, I need a refill of prescription 55555.',
        'So my refill is on its way?',
      ),
      ['max_duration_seconds = 60'],
    )
    expect(execution.row.status).toBe('infrastructure_error')
    expect(execution.failure?.stage).toBe('caller_simulation')
    const message = execution.failure?.message ?? ''
    expect(message).toContain('The offline RUN simulation did not hold, so this call proves nothing: ')
    expect(message).toContain(
      `assistant "maple-pharmacy"'s offline rules made the mutating call request_refill {"rx_number":"55555"} 2 times`,
    )
    expect(message).toContain("a rule's `when` probably also matches the caller's follow-up")
    expect(message).toContain('Offline runs stand in for your model with these rules')
    expect(execution.row.error).toMatchObject({ stage: 'caller_simulation', message })
  }, 60_000)

  it('a call cut mid-answer at max_duration_seconds names the setting, in the failure and the grade', async () => {
    const execution = await run(
      callScenario('hours_cut', 'Hi, what are your opening hours?', 'And the refill of 55555?'),
      ['max_duration_seconds = 6'],
    )
    expect(execution.failure?.stage).toBe('caller_simulation')
    expect(execution.failure?.message).toContain(
      'the call ended while the assistant was still talking: it reached simulation.max_duration_seconds (6 s), ' +
        'which cut the assistant off mid-answer; raise simulation.max_duration_seconds',
    )
    const completed = execution.grade?.assessment.checks.find(
      (check) => check.id === 'conversation_completed',
    )
    expect(completed).toMatchObject({
      status: 'failed',
      evidence: {
        termination_reason: 'duration_limit',
        max_duration_seconds: 6,
        setting: 'simulation.max_duration_seconds',
      },
    })
    expect(completed?.reason).toContain('maximum duration (6 s, simulation.max_duration_seconds)')
  }, 60_000)
})
