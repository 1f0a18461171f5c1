import { describe, expect, test } from 'vitest'
import type { CheckModel, ScenarioModel } from './model.ts'
import { scenarioSection } from './render-scenario.ts'
import { bareScenarioModel } from './report.test-helpers.ts'
import { diffState } from './state-diff.ts'

const initial = { prescriptions: [{ id: 'rx2', refills_left: 3 }] }
const final = { prescriptions: [{ id: 'rx2', refills_left: 3 }], note: 'called' }

function scenario(check: CheckModel): ScenarioModel {
  return bareScenarioModel({
    anchor: 's-refill',
    scenario_id: 'refill',
    title: 'Refill',
    checks: [check],
    state: { initial, final, changes: diffState(initial, final) },
  })
}

const stateCheck = (status: string, evidence: unknown): CheckModel => ({
  id: 'application_state',
  status,
  required: true,
  reason: 'The final state must match the expectation.',
  evidence,
})

describe('the application state section', () => {
  test('shows the expected state against the final one by path, besides initial vs final', () => {
    const page = scenarioSection(
      scenario(stateCheck('failed', { differences: ['prescriptions[0].refills_left: expected 2, got 3'] })),
    ).text
    expect(page).toContain('<h4>expected vs final</h4>')
    expect(page).toContain('<li><code>prescriptions[0].refills_left: expected 2, got 3</code></li>')
    expect(page).toContain('<h4>initial vs final</h4>')
    expect(page).toContain('<td><code>note</code></td><td>added</td>')
  })

  test('says when the final state matched, and shows nothing of it without an expectation', () => {
    expect(scenarioSection(scenario(stateCheck('passed', {}))).text).toContain(
      'The final state matches the expected state.',
    )
    const none = scenarioSection(scenario(stateCheck('not_applicable', {}))).text
    expect(none).not.toContain('expected vs final')
    expect(none).not.toContain('matches the expected state')
  })
})
