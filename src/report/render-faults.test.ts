import { describe, expect, test } from 'vitest'
import type { FaultsRecord } from '../faults/events.ts'
import type { CheckModel, ScenarioModel } from './model.ts'
import { faultOutcomesSection, faultsSection } from './render-faults.ts'
import { scenarioSection } from './render-scenario.ts'
import { bareScenarioModel } from './report.test-helpers.ts'

const FAULTS: FaultsRecord = {
  profile: 'tool-timeout',
  seed: 3,
  source: 'scenario',
  injected: [
    {
      kind: 'timeout',
      plane: 'tool',
      target: 'create_reservation',
      index: 0,
      at_ms: 5_300,
      call_id: 'call_1',
    },
  ],
  classes: ['timeout'],
}
const check = (id: string, status: string, required = true): CheckModel => ({
  id,
  status,
  required,
  reason: null,
  evidence: null,
})

function faulted(
  status: 'passed' | 'failed',
  checks: CheckModel[],
  faults: FaultsRecord | null = FAULTS,
): ScenarioModel {
  return bareScenarioModel({
    anchor: `s-${status}`,
    scenario_id: `run_fault_${status}`,
    status,
    checks,
    faults,
    expected_failure: status === 'failed' ? { checks: ['no_false_confirmation'], met: true } : null,
  })
}

describe('fault outcomes in the report', () => {
  test('a scenario shows its profile, each injected fault and the checks that scored the caller experience', () => {
    const section = faultsSection(
      faulted('failed', [
        check('no_false_confirmation', 'failed'),
        check('dead_air_while_pending', 'passed', false),
      ]),
    ).text
    expect(section).toContain('profile <b>tool-timeout</b> (seed 3, from the scenario’s fault_profile tag)')
    expect(section).toMatch(/<td>timeout<\/td><td>tool<\/td><td>create_reservation<\/td>/)
    expect(section).toContain('call call_1')
    expect(section).toMatch(/no_false_confirmation <b>failed<\/b>/)
    expect(section).toMatch(/dead_air_while_pending <b>passed<\/b> \(reported\)/)
  })

  test('a clean row has no fault section; an expected failure says so', () => {
    expect(faultsSection(faulted('passed', [], null)).text).toBe('')
    expect(scenarioSection(faulted('failed', [check('no_false_confirmation', 'failed')])).text).toContain(
      'Expected failure: the spec declared this scenario fails on no_false_confirmation, and it did',
    )
  })

  test('the run view tallies each fault class: rows, passed, and each outcome check', () => {
    const text = faultOutcomesSection(
      [
        faulted('failed', [check('no_false_confirmation', 'failed'), check('application_state', 'passed')]),
        faulted('passed', [check('no_false_confirmation', 'passed'), check('application_state', 'passed')]),
        faulted('passed', [], null),
      ],
      null,
    ).text
    expect(text).toContain('2 row(s) ran under a fault profile')
    expect(text).toMatch(/<td>timeout<\/td><td class="num">2<\/td><td class="num">1<\/td>/)
    expect(text).toMatch(/<td class="problem">1 passed, 1 failed<\/td>/)
    expect(text).toContain('<td class="">2 passed, 0 failed</td>')
    expect(faultOutcomesSection([faulted('passed', [], null)], null).text).toBe('')
  })
})
