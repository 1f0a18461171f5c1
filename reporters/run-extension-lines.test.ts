import { describe, expect, test } from 'vitest'
import { withCassetteExtension } from '../src/cassettes/row-extension.ts'
import { resultsDocument, row } from '../src/gate/gate.test-helpers.ts'
import { robustnessSection } from '../src/report/render-trials.ts'
import { junitXmlOf } from '../src/reporting/junit-xml.ts'
import type { ResultItem } from '../src/reporting/result-schema.ts'
import { withRunExtensions } from '../src/reporting/results-document.ts'
import { withAssistant } from '../src/reporting/row-assistant.ts'
import { runExtensionLines } from './run-extension-lines.ts'

function recorded(id: string, source: string, condition: string, passed: boolean | 'not_run'): ResultItem {
  const status = passed === 'not_run' ? 'infrastructure_error' : passed ? 'passed' : 'failed'
  return {
    ...row({ id, status }),
    recording: {
      id: 'r',
      path: `audio/${id}.wav`,
      condition,
      metadata: { generation: { source_scenario_id: source } },
    },
  }
}

describe('console lines for the assistants, trials and robustness', () => {
  test('the assistants under test of the run’s rows, each once', () => {
    const rows = [
      withAssistant(row({ id: 'refill' }), 'maple-pharmacy'),
      withAssistant(row({ id: 'hours' }), 'juniper-table'),
      withAssistant(row({ id: 'pharmacy_hours' }), 'maple-pharmacy'),
    ]
    expect(runExtensionLines('client', resultsDocument(rows))).toEqual([
      '[client] Assistants under test: maple-pharmacy, juniper-table.',
    ])
    expect(runExtensionLines('responses', resultsDocument(rows.slice(1, 2)))).toEqual([
      '[responses] Assistant under test: juniper-table.',
    ])
  })
  test('a run without either prints nothing more than the reference lines', () => {
    expect(runExtensionLines('client', resultsDocument([row({ id: 'a' })]))).toEqual([])
  })
  test('trials: pass^1, pass^k, the scenarios that were not repeatable, and the measured spreads', () => {
    const rows = [
      ...[1, 2, 3].map((trial) => row({ id: 'steady', trial, latencyMs: 300 + 100 * trial })),
      ...[1, 2, 3].map((trial) => row({ id: 'flaky', trial, status: trial === 1 ? 'failed' : 'passed' })),
      ...[1, 2, 3].map((trial) => row({ id: 'broken', trial, status: 'failed' })),
    ]
    const printed = runExtensionLines('client', resultsDocument(rows))
    // steady 1, flaky 2/3, broken 0 -> pass^1 (1 + 2/3 + 0) / 3 = 0.556; pass^3 (1 + 0 + 0) / 3 = 0.333
    expect(printed[0]).toBe(
      '[client] Trials: up to 3 per scenario; pass^1 0.556, pass^3 0.333 (mean over 3 scenario(s) with 3 trials).',
    )
    // broken failed every trial: it is consistently failing, not flaky
    expect(printed[1]).toBe('[client] Not repeatable (passed some trials, not all): flaky 2/3.')
    expect(printed[2]).toContain('tool accuracy 1.000 ± 0.000 [1.000–1.000], n=9')
    expect(printed[2]).not.toContain('semantic quality')
  })
  test('robustness: how many source scenarios held under every condition, and which did not', () => {
    const document = resultsDocument(
      [
        recorded('w1_clean', 'crawl_001', 'clean', true),
        recorded('w1_noisy', 'crawl_001', 'noisy', true),
        recorded('w3_clean', 'crawl_003', 'clean', true),
        recorded('w3_noisy', 'crawl_003', 'noisy', false),
      ],
      { module: 'walk' },
    )
    expect(runExtensionLines('client', document)).toEqual([
      '[client] Condition robustness: 1/2 of 2 source scenarios (50.0% of the known) passed under every condition they ran with (clean, noisy); not robust: crawl_003 (noisy).',
    ])
  })

  test('robustness: a source with a recording that did not run is unknown, and the line says so', () => {
    const document = resultsDocument(
      [
        recorded('w1_clean', 'crawl_001', 'clean', true),
        recorded('w1_speech', 'crawl_001', 'background_speech', true),
        recorded('w1_noisy', 'crawl_001', 'noisy', 'not_run'),
        recorded('w1_phone', 'crawl_001', 'telephony', 'not_run'),
      ],
      { module: 'walk' },
    )
    expect(runExtensionLines('client', document)).toEqual([
      '[client] Condition robustness: 0/0 of 1 source scenarios (unknown: 1) (– of the known) passed under every condition they ran with ' +
        '(clean, background_speech, noisy, telephony); unknown: 1, a row made from it did not run (an ' +
        'infrastructure error or a refused recording) under: crawl_001 (noisy, telephony).',
    ])
  })
})

describe('condition robustness has one ratio wherever it is printed', () => {
  test('the console, the HTML report and JUnit count the robust over the known, and name the total and unknown', () => {
    const document = resultsDocument(
      [
        recorded('w1_clean', 'crawl_001', 'clean', true),
        recorded('w1_noisy', 'crawl_001', 'noisy', true),
        recorded('w2_clean', 'crawl_002', 'clean', true),
        recorded('w2_noisy', 'crawl_002', 'noisy', 'not_run'),
      ],
      { module: 'walk' },
    )
    const ratio = '1/1 of 2 source scenarios (unknown: 1)'
    expect(runExtensionLines('client', document)[0]).toContain(
      `Condition robustness: ${ratio} (100.0% of the known)`,
    )
    const robustness = document.run.configuration.live_evals?.condition_robustness ?? null
    expect(robustnessSection(robustness).toString()).toContain(`robust<b>${ratio}</b>`)
    expect(junitXmlOf(document)).toContain(`<property name="condition_robustness.robust" value="${ratio}"/>`)
  })
})

describe('console lines for a run that is not whole', () => {
  test('a filtered run names its filter and what the gate does with it', () => {
    const document = resultsDocument([row({ id: 'a' })])
    const run = withRunExtensions(document.run, {
      selection: {
        selected_scenarios: 1,
        offered_scenarios: 22,
        test_name_filter: 'crawl_003',
        tags_filter: [],
        spec_files_left_out: [],
      },
    })
    expect(runExtensionLines('client', { ...document, run })).toEqual([
      '[client] Not a whole run: a filtered run: 1 of 22 scenarios, chosen by the test-name filter /crawl_003/ ' +
        '(run.configuration.live_evals.selection); gate --latest skips it, and gate refuses it without --allow-partial.',
    ])
  })

  test('a trials run filtered to one trial counts its trials; a filter without a pattern is named for what it is', () => {
    const document = resultsDocument([row({ id: 'a' })])
    const selection = {
      selected_scenarios: 3,
      offered_scenarios: 3,
      test_name_filter: null,
      tags_filter: [],
      spec_files_left_out: [],
    }
    const trials = withRunExtensions(document.run, {
      selection: { ...selection, selected_trials: 3, offered_trials: 9, test_name_filter: 'trial 1\\/' },
    })
    expect(runExtensionLines('client', { ...document, run: trials })[0]).toContain(
      'a filtered run: 3 of 3 scenarios (3 of 9 trials), chosen by the test-name filter /trial 1\\//',
    )
    const noPattern = withRunExtensions(document.run, { selection: { ...selection, selected_scenarios: 1 } })
    expect(runExtensionLines('client', { ...document, run: noPattern })[0]).toContain(
      'a filtered run: 1 of 3 scenarios, chosen by a line filter, a rerun of chosen tests, .only or .skip (run.configuration',
    )
  })
})

describe('console lines for cassettes', () => {
  const divergence = {
    channel: 'assistant',
    turn: 0,
    message: 'session.start #1',
    path: 'session.instructions',
    recorded: '"a"',
    now: '"b"',
    text: 'assistant session.start #1 (turn 0): session.instructions changed at character 212',
  }
  const replayed = (id: string, outcome: 'replayed' | 'diverged' | 'missing' | 'refused'): ResultItem =>
    withCassetteExtension(row({ id }), {
      mode: 'replay',
      id: `${id}__client`,
      outcome,
      match: 'strict',
      divergence_count: outcome === 'diverged' ? 1 : outcome === 'replayed' ? 0 : null,
      first_divergence: outcome === 'diverged' ? divergence : null,
      divergences: outcome === 'diverged' ? [divergence] : [],
    })
  test('a replay says how many scenarios replayed, diverged, were missing or refused, and names first divergences', () => {
    const rows = [
      replayed('a', 'replayed'),
      replayed('b', 'diverged'),
      replayed('c', 'missing'),
      replayed('d', 'replayed'),
    ]
    expect(runExtensionLines('client', resultsDocument(rows))).toEqual([
      '[client] Replay (strict): 2 replayed, 1 diverged, 1 missing, 0 refused.',
      `[client] First divergences: b: ${divergence.text}.`,
    ])
  })
  test('every row of a replay run is in the tally: one that failed before its replay began is counted by name', () => {
    const rows = [replayed('a', 'replayed'), replayed('b', 'refused'), row({ id: 'c' })]
    expect(runExtensionLines('client', resultsDocument(rows))).toEqual([
      '[client] Replay (strict): 1 replayed, 0 diverged, 0 missing, 1 refused, 1 not replayed (failed before ' +
        'the replay began: c).',
    ])
  })
})
