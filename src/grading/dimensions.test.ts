import { describe, expect, test } from 'vitest'
import type { SingleTurnObservation } from '../observability/observation.ts'
import { DETERMINISTIC_DIMENSIONS, gradeDeterministicDimensions } from './dimensions.ts'
import {
  bookingObservation,
  bookingScenario,
  execution,
  expectedOutcome,
  expectedToolCall,
  scenarioFacts,
} from './grading-fixtures.ts'
import type { ScenarioFacts } from './scenario-facts.ts'
import { computeToolCallGrade } from './tool-grade.ts'

function grade(observation: SingleTurnObservation, scenario: ScenarioFacts) {
  return gradeDeterministicDimensions(
    observation,
    scenario,
    computeToolCallGrade(observation.requested_tool_calls, scenario.expected.tools.required),
  )
}

describe('gradeDeterministicDimensions', () => {
  test('a correct booking passes every applicable dimension, with 1/0 scores and the status shape', () => {
    const dimensions = grade(bookingObservation(), bookingScenario())
    expect(Object.keys(dimensions)).toEqual([...DETERMINISTIC_DIMENSIONS])
    for (const name of DETERMINISTIC_DIMENSIONS) {
      const dimension = dimensions[name]
      if (name === 'clarification_behavior') {
        expect(dimension).toMatchObject({ status: 'not_applicable', passed: null, score: null })
      } else {
        expect(dimension).toMatchObject({ status: 'passed', passed: true, score: 1 })
      }
    }
  })

  test('delegation_decision: required needs a delegation and shows its evidence', () => {
    const dimensions = grade(bookingObservation({ delegation_ids: [] }), bookingScenario())
    expect(dimensions.delegation_decision).toMatchObject({
      status: 'failed',
      passed: false,
      score: 0,
      evidence: { expected: 'required', observed: false, count: 0 },
    })
  })
  test('delegation_decision: forbidden needs none; optional accepts either; repeated ids count once', () => {
    const forbidden = bookingScenario({ delegation: 'forbidden', tools: { required: [], prohibited: [] } })
    expect(grade(bookingObservation(), forbidden).delegation_decision.status).toBe('failed')
    const optional = bookingScenario({ delegation: 'optional' })
    expect(grade(bookingObservation({ delegation_ids: [] }), optional).delegation_decision.status).toBe(
      'passed',
    )
    const repeated = grade(bookingObservation({ delegation_ids: ['d', 'd'] }), bookingScenario())
    expect(repeated.delegation_decision.evidence).toMatchObject({ count: 1 })
  })

  test('tool_selection and parameter_accuracy follow the requested calls', () => {
    const wrongArgs = bookingObservation({
      requested_tool_calls: [
        { name: 'create_reservation', arguments: { guest_name: 'Amaya', party_size: 2 } },
      ],
    })
    const dimensions = grade(wrongArgs, bookingScenario())
    expect(dimensions.tool_selection.status).toBe('passed')
    expect(dimensions.parameter_accuracy.status).toBe('failed')
  })

  test('tool_execution fails on a failed execution even when the completed ones match', () => {
    const observation = bookingObservation({
      tool_executions: [execution({ call_id: 'call_0', status: 'failed', output: 'bad time' }), execution()],
    })
    expect(grade(observation, bookingScenario()).tool_execution.status).toBe('failed')
  })
  test('tool_execution fails on an extra completed execution and on a missing one', () => {
    const extra = bookingObservation({ tool_executions: [execution(), execution({ call_id: 'call_2' })] })
    expect(grade(extra, bookingScenario()).tool_execution.status).toBe('failed')
    const missing = bookingObservation({ tool_executions: [] })
    expect(grade(missing, bookingScenario()).tool_execution.status).toBe('failed')
  })
  test('tool_execution matches in order', () => {
    const scenario = bookingScenario({
      tools: {
        required: [expectedToolCall('check_availability'), expectedToolCall('create_reservation')],
        prohibited: [],
      },
    })
    const reversed = bookingObservation({
      tool_executions: [execution(), execution({ call_id: 'c2', name: 'check_availability' })],
    })
    expect(grade(reversed, scenario).tool_execution.status).toBe('failed')
  })

  test('final_state uses the single-turn verification', () => {
    const wrongGuest = bookingObservation({
      final_application_state: { reservations: [{ guest_name: 'Ana' }] },
    })
    expect(grade(wrongGuest, bookingScenario()).final_state.status).toBe('failed')
  })

  test('clarification_behavior applies only to clarification scenarios and requires no delegation, no tool, right state', () => {
    const clarification = scenarioFacts({
      scenario_type: 'clarification',
      expected: expectedOutcome({ delegation: 'forbidden', state: { unchanged: true } }),
    })
    const quiet = bookingObservation({
      delegation_ids: [],
      requested_tool_calls: [],
      tool_executions: [],
      final_application_state: { reservations: [] },
    })
    expect(grade(quiet, clarification).clarification_behavior.status).toBe('passed')
    expect(grade({ ...quiet, delegation_ids: ['d'] }, clarification).clarification_behavior.status).toBe(
      'failed',
    )
    const failedTool = { ...quiet, tool_executions: [execution({ status: 'failed' as const })] }
    expect(grade(failedTool, clarification).clarification_behavior.status).toBe('failed')
    const changed = { ...quiet, final_application_state: { reservations: [{ guest_name: 'x' }] } }
    expect(grade(changed, clarification).clarification_behavior.status).toBe('failed')
  })

  test('grounded_relay_order applies only with expected tools and needs post-tool speech', () => {
    expect(
      grade(bookingObservation({ post_tool_assistant_text: '  ' }), bookingScenario()).grounded_relay_order,
    ).toMatchObject({
      status: 'failed',
    })
    const noTools = scenarioFacts()
    expect(grade(bookingObservation(), noTools).grounded_relay_order.status).toBe('not_applicable')
    // Speech after a tool that did not run as expected relays nothing grounded.
    const failedTool = bookingObservation({ tool_executions: [execution({ status: 'failed' })] })
    expect(grade(failedTool, bookingScenario()).grounded_relay_order.status).toBe('failed')
  })

  test('run_validity always passes once there is an observation', () => {
    expect(
      grade(bookingObservation({ termination_reason: 'response_timeout' }), bookingScenario()).run_validity
        .status,
    ).toBe('passed')
  })
})
