import { describe, expect, test } from 'vitest'
import { voiceRow } from '../gate/metric-thresholds.test-helpers.ts'
import { computeVoiceMetrics } from '../metrics/voice-metrics.ts'
import { passingRowInput } from '../reporting/reporting-fixtures.ts'
import { buildResultRow } from '../reporting/result-item.ts'
import { scenarioModel } from './model.ts'
import { scenarioSection } from './render-scenario.ts'

const noEvidence = { details: null, details_problem: null, voice: null, voice_problem: null }

describe('the voice metrics view of a scenario', () => {
  test("shows the scenario's figures in their units, an unknown one as a dash", () => {
    // One barge-in at 1 000 into speech until 1 300: stop time 300 ms. No backchannel: selectivity unknown.
    const section = scenarioSection(scenarioModel(voiceRow('s1', 300), noEvidence)).toString()
    expect(section).toContain('<h3>Voice metrics</h3>')
    expect(section).toMatch(
      /stop time after a barge-in <span class="meta">stop_time_ms<\/span><\/td><td class="num">300 ms/,
    )
    expect(section).toMatch(
      /backchannel selectivity <span class="meta">backchannel_selectivity<\/span><\/td><td class="num">–/,
    )
    expect(section).toContain('The scenario expects no entity.')
  })
  test('lists the entities one by one, with the value a tool got instead of an altered one', () => {
    const voice = computeVoiceMetrics(
      {
        caller_turns: [],
        caller_voiced: [],
        assistant_voiced: [],
        assistant_utterances: ['See you on August 14.'],
        delegation_starts_ms: [],
        tool_results_ms: [],
        barge_in_cues_ms: [],
        tool_calls: [
          { name: 'create_reservation', arguments: { guest_name: 'Riviera', date: '2026-08-15' } },
        ],
        call_start_ms: 0,
        observation_end_ms: 10_000,
      },
      {
        tags: [],
        required_tools: [{ name: 'create_reservation', arguments: { guest_name: 'Rivera', time: '19:00' } }],
        state: {},
        initial_state: {},
      },
    )
    const row = buildResultRow(passingRowInput({ scenario_id: 's2', extensions: { voice_metrics: voice } }))
    const section = scenarioSection(scenarioModel(row, noEvidence)).toString()
    expect(section).toContain(
      '<tr class="entity-altered"><td>name <span class="meta">tools.required[0].arguments.guest_name</span></td><td><code>Rivera</code></td><td>altered</td><td>tool</td><td><code>&quot;Riviera&quot;</code></td></tr>',
    )
    expect(section).toContain('<tr class="entity-missing"><td>time')
    // 2 entities, both wrong: 2 errors.
    expect(section).toMatch(/entity errors <span class="meta">entity_errors<\/span><\/td><td class="num">2</)
  })
  test('a row without voice metrics (an infrastructure row, an older row) shows no voice section', () => {
    const section = scenarioSection(scenarioModel(buildResultRow(passingRowInput()), noEvidence)).toString()
    expect(section).not.toContain('Voice metrics')
  })
})
