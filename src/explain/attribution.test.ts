// Attribution from outcomes alone: pass rates with their Wilson intervals, the shift against the unchanged
// re-run with Newcombe's interval (the arithmetic written out below), what the interval allows, the decisive
// intervention and the class. An arm whose outcomes equal the control's shows exactly no shift.
import { describe, expect, test } from 'vitest'
import { type ArmOutcome, armOf, decisiveArm, effectOf, explanationOf } from './attribution.ts'
import type { InterventionId, Rerun } from './schema.ts'
import { classOfIntervention, failureResolved } from './taxonomy.ts'

const DRAWS = { caller_offset_ms: 0, preset_seed: null, fault_seed: null }

function rerun(
  status: Rerun['status'],
  trial = 1,
  failed: Partial<Pick<Rerun, 'failed_checks' | 'failed_dimensions'>> = {},
): Rerun {
  return {
    trial,
    draws: DRAWS,
    status,
    resolved: status === 'infrastructure_error' ? null : status === 'passed',
    failed_checks: status === 'failed' ? (failed.failed_checks ?? ['application_state']) : [],
    failed_dimensions: status === 'failed' ? (failed.failed_dimensions ?? []) : [],
    error: status === 'infrastructure_error' ? { stage: 'connection', message: 'refused' } : null,
    details: null,
  }
}

/** `passed` passes then failures, k in all. */
function outcome(
  arm: string,
  intervention: InterventionId | null,
  passed: number,
  k: number,
  failed: Partial<Pick<Rerun, 'failed_checks' | 'failed_dimensions'>> = {},
): ArmOutcome {
  return {
    arm,
    intervention,
    label: arm,
    target: null,
    measure: 'verdict',
    class: intervention === null ? null : classOfIntervention(intervention),
    reruns: Array.from({ length: k }, (_, index) =>
      rerun(index < passed ? 'passed' : 'failed', index + 1, failed),
    ),
  }
}

const SCENARIO = {
  scenario_id: 's1',
  title: 'a booking',
  run_rows: { failed_trials: [1], total: 1 },
  original_failed_checks: ['application_state'],
  not_applicable: [],
}

describe('arm statistics', () => {
  test('5/5 against 0/5: Wilson intervals and the Newcombe shift, written out', () => {
    const control = armOf(outcome('control', null, 0, 5), null)
    // Wilson for 0/5: centre z²/2n / (1 + z²/n), half-width the same, so [0, z²/(n + z²)] = [0, 0.4345].
    expect(control.rate.estimate).toBe(0)
    expect(control.rate.lower).toBe(0)
    expect(control.rate.upper).toBeCloseTo(3.8415 / (5 + 3.8415), 4)
    expect(control.shift).toBeNull()
    expect(control.effect).toBeNull()
    const fixed = armOf(outcome('text_for_audio', 'text_for_audio', 5, 5), control)
    expect(fixed.rate.lower).toBeCloseTo(5 / (5 + 3.8415), 4)
    // Newcombe: delta − sqrt((p2 − l2)² + (u1 − p1)²) = 1 − sqrt(0.4345² + 0.4345²) = 0.3855.
    expect(fixed.shift?.delta).toBe(1)
    expect(fixed.shift?.lower).toBeCloseTo(1 - Math.SQRT2 * (3.8415 / 8.8415), 3)
    expect(fixed.shift?.upper).toBe(1)
    expect(fixed.effect).toBe('fixes')
  })

  test('an intervention that changes nothing shows no shift: delta exactly 0, an interval around it', () => {
    const control = armOf(outcome('control', null, 1, 5), null)
    const same = armOf(outcome('clean_audio', 'clean_audio', 1, 5), control)
    expect(same.shift?.delta).toBe(0)
    expect(same.shift?.lower).toBeLessThan(0)
    expect(same.shift?.upper).toBeGreaterThan(0)
    expect(same.effect).toBe('no_shift')
  })

  test('infrastructure errors have no verdict: counted apart, out of n', () => {
    const arm = armOf(
      { ...outcome('control', null, 1, 2), reruns: [rerun('passed'), rerun('infrastructure_error', 2)] },
      null,
    )
    expect(arm).toMatchObject({ passed: 1, n: 1, infrastructure_errors: 1 })
    const none = armOf({ ...outcome('x', 'clean_audio', 0, 0), reruns: [rerun('infrastructure_error')] }, arm)
    expect(none.n).toBe(0)
    expect(none.rate).toEqual({ estimate: null, lower: null, upper: null })
    expect(none.effect).toBe('unknown')
  })

  test('effects: only an interval that excludes 0 fixes or worsens; a change it cannot tell is inconclusive', () => {
    expect(effectOf({ delta: 0.4, lower: 0.01, upper: 0.7 })).toBe('fixes')
    expect(effectOf({ delta: -0.4, lower: -0.7, upper: -0.01 })).toBe('worsens')
    expect(effectOf({ delta: 0.4, lower: -0.1, upper: 0.7 })).toBe('inconclusive')
    expect(effectOf({ delta: 0, lower: -0.4, upper: 0.4 })).toBe('no_shift')
    expect(effectOf({ delta: null, lower: null, upper: null })).toBe('unknown')
    // One trial per arm can never conclude: 1/1 against 0/1 straddles 0.
    const control = armOf(outcome('control', null, 0, 1), null)
    expect(armOf(outcome('a', 'clean_audio', 1, 1), control).effect).toBe('inconclusive')
  })
})

describe('the decisive intervention and the class', () => {
  test('the largest significant shift is decisive; its class is the explanation', () => {
    const explanation = explanationOf(SCENARIO, outcome('control', null, 0, 5), [
      outcome('clean_audio', 'clean_audio', 0, 5),
      outcome('remove_barge_in-cut', 'remove_barge_in', 3, 5),
      outcome('suppress_delegation', 'suppress_delegation', 5, 5),
    ])
    expect(explanation.interventions.map((arm) => arm.effect)).toEqual(['no_shift', 'fixes', 'fixes'])
    expect(explanation.decisive).toMatchObject({ intervention: 'suppress_delegation', successes: 5, n: 5 })
    expect(explanation.classification).toMatchObject({ class: 'delegation_decision', basis: 'intervention' })
    expect(explanation.summary).toBe(
      'fixed by suppress_delegation in 5/5 (unchanged 0/5): a delegation-decision failure',
    )
  })

  test('equal shifts: the higher lower bound, then the catalogue order (upstream causes first)', () => {
    const control = armOf(outcome('control', null, 0, 5), null)
    const hearing = armOf(outcome('text_for_audio', 'text_for_audio', 5, 5), control)
    const turn = armOf(outcome('remove_barge_in-a', 'remove_barge_in', 5, 5), control)
    expect(decisiveArm([hearing, turn])?.arm).toBe('text_for_audio')
  })

  test('a control that passes: not reproduced, nothing attributed even if an arm "fixes"', () => {
    const explanation = explanationOf(SCENARIO, outcome('control', null, 5, 5), [
      outcome('clean_audio', 'clean_audio', 5, 5),
    ])
    expect(explanation.decisive).toBeNull()
    expect(explanation.classification).toMatchObject({ class: 'not_reproduced', basis: 'control' })
    expect(explanation.summary).toMatch(/passed 5\/5: the failure did not reproduce/)
  })

  test('a control with no verdict attributes nothing', () => {
    const explanation = explanationOf(
      SCENARIO,
      { ...outcome('control', null, 0, 1), reruns: [rerun('infrastructure_error')] },
      [outcome('clean_audio', 'clean_audio', 1, 1)],
    )
    expect(explanation.classification).toMatchObject({ class: 'unexplained', basis: 'control' })
  })

  test('nothing fixes it: the class is what the unchanged re-runs still fail, and says so', () => {
    const wrongArguments = explanationOf(
      SCENARIO,
      outcome('control', null, 0, 3, { failed_dimensions: ['parameter_accuracy', 'final_state'] }),
      [outcome('suppress_delegation', 'suppress_delegation', 0, 3)],
    )
    expect(wrongArguments.classification).toMatchObject({
      class: 'tool_arguments',
      basis: 'remaining_checks',
    })
    expect(wrongArguments.summary).toBe(
      'no applicable intervention changed the outcome; the unchanged re-runs still fail parameter_accuracy (the right tool, wrong arguments): a tool-arguments failure',
    )
    const wrongTool = explanationOf(
      SCENARIO,
      outcome('control', null, 0, 3, { failed_dimensions: ['parameter_accuracy', 'tool_selection'] }),
      [],
    )
    expect(wrongTool.classification.class).toBe('unexplained')
    expect(wrongTool.summary).toBe(
      'no intervention applied; the unchanged re-runs still fail tool_selection (a wrong or missing tool call): unexplained',
    )
    const nothing = explanationOf(
      SCENARIO,
      outcome('control', null, 0, 2, { failed_checks: ['assistant_responded'] }),
      [],
    )
    expect(nothing.summary).toBe('no intervention applied: unexplained')
    const state = explanationOf(
      SCENARIO,
      outcome('control', null, 0, 3, { failed_checks: ['no_unexpected_side_effects', 'application_state'] }),
      [],
    )
    expect(state.classification).toMatchObject({ class: 'state', basis: 'remaining_checks' })
    expect(state.classification.note).toContain('application_state, no_unexpected_side_effects')
  })

  test('an intervention that makes it worse is reported, never decisive', () => {
    const explanation = explanationOf(SCENARIO, outcome('control', null, 2, 5), [
      outcome('suppress_delegation', 'suppress_delegation', 0, 5),
    ])
    expect(explanation.interventions[0]?.effect).toBe('inconclusive')
    const strong = explanationOf(SCENARIO, outcome('control', null, 4, 8), [
      outcome('suppress_delegation', 'suppress_delegation', 0, 8),
    ])
    expect(strong.interventions[0]?.effect).toBe('worsens')
    expect(strong.decisive).toBeNull()
  })
})

describe('the fault arms: judged on whether the run failure is gone', () => {
  test('failureResolved: the run’s failed checks pass, and only the expected outcome may fail instead', () => {
    const run = ['no_false_confirmation', 'assertion:toCompleteTask']
    const rerun = (status: Rerun['status'], failed_checks: string[]) => ({ status, failed_checks })
    // The booking went through once the timeout was gone: the state and the expected failed call now differ.
    expect(
      failureResolved(
        rerun('failed', [
          'application_state',
          'tool_contract',
          'assertion:toMatchToolCalls',
          'assertion:toCompleteTask',
        ]),
        run,
      ),
    ).toBe(true)
    expect(failureResolved(rerun('failed', ['no_false_confirmation', 'assertion:toCompleteTask']), run)).toBe(
      false,
    )
    // Avoiding the situation is no fix: a new failure outside the expected outcome.
    expect(failureResolved(rerun('failed', ['delegation_policy', 'assertion:toCompleteTask']), run)).toBe(
      false,
    )
    expect(failureResolved(rerun('passed', []), run)).toBe(true)
    expect(failureResolved(rerun('infrastructure_error', []), run)).toBeNull()
    // A run that failed only its umbrella assertion has nothing particular to resolve: only a pass does.
    expect(failureResolved(rerun('failed', ['application_state']), ['assertion:toCompleteTask'])).toBe(false)
    // A failed expected-outcome check of the run itself must pass to count.
    expect(failureResolved(rerun('failed', ['application_state']), ['application_state'])).toBe(false)
  })

  test('a fault arm that resolves the failure while the verdict stays failed is decisive, and says how it was judged', () => {
    const reruns = (resolved: boolean, k: number) =>
      Array.from({ length: k }, (_, index) => ({ ...rerun('failed', index + 1), resolved }))
    const explanation = explanationOf(
      SCENARIO,
      { ...outcome('control', null, 0, 5), reruns: reruns(false, 5) },
      [
        { ...outcome('suppress_delegation', 'suppress_delegation', 0, 5), reruns: reruns(false, 5) },
        {
          ...outcome('correct_tool_result', 'correct_tool_result', 0, 5),
          measure: 'failure_resolved',
          reruns: reruns(true, 5),
        },
      ],
    )
    const [suppressed, corrected] = explanation.interventions
    expect(suppressed).toMatchObject({ measure: 'verdict', successes: 0, effect: 'no_shift' })
    expect(corrected).toMatchObject({
      measure: 'failure_resolved',
      passed: 0,
      resolved: 5,
      successes: 5,
      effect: 'fixes',
    })
    expect(explanation.decisive).toMatchObject({
      intervention: 'correct_tool_result',
      measure: 'failure_resolved',
    })
    expect(explanation.classification.class).toBe('backend_fault_handling')
    expect(explanation.summary).toBe(
      "fixed by correct_tool_result in 5/5 (unchanged 0/5; judged on the checks the run failed, as the scenario's expected outcome assumes the fault): a backend-fault-handling failure",
    )
  })
})
