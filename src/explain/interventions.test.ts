// Which interventions apply to a row, and why the others do not: decided from what the row recorded, each
// missing one with a reason a reader can check.
import { describe, expect, test } from 'vitest'
import { FAULT_PROFILES } from '../config/fault-profiles.ts'
import type { LoadedScenario } from '../scenarios/index.ts'
import { applicableArms, type RowFacts } from './interventions.ts'
import { INTERVENTION_IDS } from './schema.ts'

const CLEAN_SIBLING = { id: 'walk_001_clean' } as LoadedScenario
const FLAKY = { profile: FAULT_PROFILES['backend-flaky'], source: 'setting' as const }

function facts(overrides: Partial<RowFacts>): RowFacts {
  return {
    phase: 'crawl',
    mode: 'offline',
    callerReplayed: null,
    toolsFromCassette: false,
    delegated: true,
    recordingCondition: null,
    cleanSibling: null,
    callerCondition: null,
    bargeInsSaid: [],
    bargeInsScheduled: [],
    faultedResults: 0,
    faults: null,
    faultKinds: [],
    ...overrides,
  }
}

const armsOf = (row: RowFacts) => applicableArms(row, INTERVENTION_IDS).arms.map((arm) => arm.arm)
const reasonOf = (row: RowFacts, id: string) =>
  applicableArms(row, INTERVENTION_IDS).notApplicable.find((entry) => entry.intervention === id)?.reason

describe('applicableArms', () => {
  test('an offline CRAWL row that delegated: only suppressing the delegation applies', () => {
    const row = facts({})
    expect(armsOf(row)).toEqual(['suppress_delegation'])
    expect(reasonOf(row, 'clean_audio')).toMatch(/synthetic speech/)
    expect(reasonOf(row, 'text_for_audio')).toMatch(/already heard exactly as its text/)
    expect(reasonOf(row, 'force_delegation')).toBe('the assistant delegated')
    expect(reasonOf(row, 'faults_off')).toBe('the row ran with no fault profile')
  })

  test('a WALK row under a preset: its clean sibling, the text, in the catalogue order', () => {
    const row = facts({
      phase: 'walk',
      recordingCondition: 'noisy',
      cleanSibling: { scenario: CLEAN_SIBLING },
    })
    expect(armsOf(row)).toEqual(['clean_audio', 'text_for_audio', 'suppress_delegation'])
    const plan = applicableArms(row, INTERVENTION_IDS).arms[0]
    expect(plan?.change).toEqual({ kind: 'scenario', scenario: CLEAN_SIBLING })
    expect(plan?.label).toContain('walk_001_clean')
  })

  test('a WALK row whose clean recording cannot be found says where it looked', () => {
    const row = facts({
      phase: 'walk',
      recordingCondition: 'noisy',
      cleanSibling: { missing: 'none in x.json' },
    })
    expect(reasonOf(row, 'clean_audio')).toBe('none in x.json')
    expect(reasonOf(facts({ phase: 'walk', recordingCondition: 'clean' }), 'clean_audio')).toMatch(/already/)
  })

  test('a RUN row: the preset removed, one arm per barge-in that was said', () => {
    const row = facts({
      phase: 'run',
      callerCondition: 'telephony',
      bargeInsScheduled: ['a', 'b', 'c'],
      bargeInsSaid: ['a', 'c'],
    })
    expect(armsOf(row)).toEqual([
      'clean_audio',
      'remove_barge_in-a',
      'remove_barge_in-c',
      'suppress_delegation',
    ])
    expect(reasonOf(row, 'text_for_audio')).toMatch(/speaks its own lines/)
    expect(reasonOf(facts({ phase: 'run', bargeInsScheduled: ['a'] }), 'remove_barge_in')).toMatch(/was said/)
    expect(reasonOf(facts({ phase: 'run', callerCondition: 'clean' }), 'clean_audio')).toMatch(
      /no acoustic preset/,
    )
  })

  test('a replayed caller (replay.caller) cannot be changed: only the assistant-side interventions apply', () => {
    const row = facts({
      phase: 'run',
      mode: 'live',
      callerReplayed: 'cassettes/run',
      callerCondition: 'noisy',
      bargeInsScheduled: ['a'],
      bargeInsSaid: ['a'],
    })
    expect(armsOf(row)).toEqual(['suppress_delegation'])
    expect(reasonOf(row, 'remove_barge_in')).toBe(
      'the caller is the recording in cassettes/run (replay.caller), which this change cannot alter; explain without replay.caller for a new caller',
    )
    expect(reasonOf(row, 'clean_audio')).toMatch(/replay\.caller/)
    // Tools answered from the recording: the fault arms cannot change what they answer either.
    const recorded = facts({
      callerReplayed: 'c',
      toolsFromCassette: true,
      faults: FLAKY,
      faultedResults: 1,
    })
    expect(reasonOf({ ...recorded, faultKinds: ['error'] }, 'correct_tool_result')).toMatch(
      /replay\.caller_tools/,
    )
    expect(reasonOf({ ...recorded, faultKinds: ['error'] }, 'faults_off')).toMatch(/recording’s outputs/)
  })

  test('delegation: forced only live, and only where the assistant did not delegate', () => {
    expect(reasonOf(facts({ delegated: false }), 'force_delegation')).toMatch(
      /offline, the scripted behaviour/,
    )
    expect(armsOf(facts({ delegated: false, mode: 'live' }))).toEqual(['force_delegation'])
    expect(reasonOf(facts({ delegated: null }), 'suppress_delegation')).toBe('the assistant did not delegate')
  })

  test('faults: the tool results only where a fault altered one, the profile only where it injected one', () => {
    expect(
      armsOf(facts({ delegated: false, faults: FLAKY, faultedResults: 2, faultKinds: ['error', 'error'] })),
    ).toEqual(['correct_tool_result', 'faults_off'])
    expect(reasonOf(facts({ faults: FLAKY }), 'correct_tool_result')).toMatch(/no tool result/)
    expect(reasonOf(facts({ faults: FLAKY }), 'faults_off')).toBe(
      'the profile backend-flaky injected no fault in the row',
    )
    expect(reasonOf(facts({}), 'faults_off')).toBe('the row ran with no fault profile')
  })

  test('fault arms are judged on the resolved failure; the profile off names its class from what it removed', () => {
    const plans = (kinds: string[]) =>
      applicableArms(facts({ faults: FLAKY, faultKinds: kinds, faultedResults: 1 }), INTERVENTION_IDS).arms
    const off = (kinds: string[]) => plans(kinds).find((plan) => plan.intervention === 'faults_off')
    expect(plans(['timeout']).map((plan) => [plan.arm, plan.measure, plan.class])).toEqual([
      ['suppress_delegation', 'verdict', 'delegation_decision'],
      ['correct_tool_result', 'failure_resolved', 'backend_fault_handling'],
      ['faults_off', 'failure_resolved', 'backend_fault_handling'],
    ])
    expect(off(['uplink_loss'])?.class).toBe('mishearing')
    expect(off(['stream_cut', 'jitter'])?.class).toBe('turn_taking')
    expect(off(['jitter', 'backend_stall'])?.class).toBe('backend_fault_handling')
  })
})
