import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ScenarioSchema } from '../../scenarios/scenario.ts'
import { assistantVisibleInput } from '../../scenarios/visible.ts'
import { bookingObservation } from '../grading-fixtures.ts'
import { buildJudgeEvidence, judgeScenarioFactsOf } from './evidence.ts'
import { bookingObserved, judgeBooking, PRIVATE_SENTINEL } from './judge.test-helpers.ts'

const EXPECTED = 'JUDGEONLY_EXPECTED'

function sentinelScenario() {
  return ScenarioSchema.parse({
    id: 'restaurant_015',
    title: 'Booking after an earlier call',
    tags: ['prior_context'],
    interaction: 'single_turn',
    input: { text: 'Same as last time, please.', context: { summary: 'Maya booked for two before.' } },
    expected: {
      answer: `Booked again. ${EXPECTED}`,
      criteria: [`Names the time. ${EXPECTED}`],
      delegation: 'required',
      tools: { required: [{ name: 'create_reservation', arguments: { guest_name: `maya ${EXPECTED}` } }] },
      state: { reservations: [{ guest_name: `maya ${EXPECTED}` }] },
    },
  })
}

describe('buildJudgeEvidence', () => {
  it('reads the scenario side from a parsed scenario, its conversation context included', () => {
    const scenario = sentinelScenario()
    const evidence = buildJudgeEvidence(judgeScenarioFactsOf(scenario), {
      observation: bookingObservation(),
      business_facts: null,
    })
    expect(evidence.scenario).toMatchObject({
      example_id: 'restaurant_015',
      scenario_type: 'prior_context',
      user_request: 'Same as last time, please.',
      conversation_context: { summary: 'Maya booked for two before.', history: [] },
      expected_tool_calls: [{ name: 'create_reservation', status: 'completed' }],
    })
    expect(evidence.observed.public_business_facts).toBeNull()
  })

  it('drops the private availability overrides and copies everything it keeps', () => {
    const observed = bookingObserved()
    const evidence = buildJudgeEvidence(judgeBooking(), observed)
    expect(JSON.stringify(evidence)).not.toContain(PRIVATE_SENTINEL)
    evidence.observed.final_application_state.reservations = []
    expect(observed.observation.final_application_state.reservations).toHaveLength(1)
    expect(observed.business_facts).toHaveProperty('availability_overrides')
  })
})

describe('judge evidence stays on the evaluator side', () => {
  it('building it changes nothing the assistant side reads, and that view holds none of it', () => {
    const scenario = sentinelScenario()
    const before = structuredClone(scenario)
    const evidence = buildJudgeEvidence(judgeScenarioFactsOf(scenario), bookingObserved())
    expect(JSON.stringify(evidence)).toContain(EXPECTED)
    expect(scenario).toEqual(before)
    expect(JSON.stringify(assistantVisibleInput(scenario))).not.toContain(EXPECTED)
  })

  it('no judge module imports the assistant, live-session, phase or Vitest side it could hand evidence to', () => {
    const folder = fileURLToPath(new URL('.', import.meta.url))
    const sources = readdirSync(folder).filter((file) => file.endsWith('.ts') && !file.includes('.test'))
    expect(sources.length).toBeGreaterThan(5)
    for (const file of sources) {
      const imports = [...readFileSync(`${folder}${file}`, 'utf8').matchAll(/from '([^']+)'/g)].map(
        (m) => m[1],
      )
      for (const path of imports)
        expect(path, `${file} imports ${path}`).not.toMatch(/\/(assistants|live|phases|vitest)\//)
    }
  })
})
