// Builders for rows-journal tests (here and in the `live-evals results` verb's tests).

import { passingRowInput } from '../reporting/reporting-fixtures.ts'
import { buildResultRow, infrastructureErrorRow } from '../reporting/result-item.ts'
import type { ResultItem, RunMetadata } from '../reporting/result-schema.ts'

export const JOURNAL_RUN: RunMetadata = {
  id: 'crawl_offline_responses_20260818_102030_400Z',
  module: 'crawl',
  execution_mode: 'offline_fixture',
  interaction: 'single_turn',
  dataset: '/datasets/restaurant.json',
  configuration: { audio_source: 'synthetic', concurrency: 1 },
}

export const JOURNAL_ORDER = ['first', 'second', 'third', 'fourth']

export function passedRow(scenarioId: string): ResultItem {
  return buildResultRow(passingRowInput({ scenario_id: scenarioId, title: `Scenario ${scenarioId}` }))
}

export function brokenRow(scenarioId: string): ResultItem {
  return infrastructureErrorRow({
    scenario_id: scenarioId,
    title: `Scenario ${scenarioId}`,
    stage: 'session_start',
    message: 'the offline server refused the session',
  })
}
