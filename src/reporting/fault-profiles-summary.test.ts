import { expect, test } from 'vitest'
import { FAULT_PROFILES } from '../config/fault-profiles.ts'
import { faultsRecord } from '../faults/events.ts'
import { summarizeFaultProfiles } from './fault-profiles-summary.ts'
import { passingRowInput } from './reporting-fixtures.ts'
import { buildResultRow } from './result-item.ts'
import { buildResultsDocument } from './results-document.ts'

const rowUnder = (id: string, name: keyof typeof FAULT_PROFILES, source: 'setting' | 'scenario') =>
  buildResultRow(
    passingRowInput({
      scenario_id: id,
      extensions: { faults: faultsRecord(FAULT_PROFILES[name], source, []) },
    }),
  )

test('the run lists each profile its rows ran under, defined, with its sources and rows; none when all ran clean', () => {
  const rows = [
    rowUnder('a', 'tool-timeout', 'scenario'),
    rowUnder('b', 'tool-timeout', 'setting'),
    rowUnder('c', 'uplink-loss', 'scenario'),
    buildResultRow(passingRowInput({ scenario_id: 'd' })),
  ]
  expect(summarizeFaultProfiles(rows)).toEqual([
    { profile: FAULT_PROFILES['tool-timeout'], sources: ['scenario', 'setting'], rows: 2 },
    { profile: FAULT_PROFILES['uplink-loss'], sources: ['scenario'], rows: 1 },
  ])
  expect(summarizeFaultProfiles(rows.slice(3))).toBeNull()
  const document = buildResultsDocument(
    {
      id: 'r',
      module: 'run',
      execution_mode: 'offline_fixture',
      interaction: 'multi_turn',
      dataset: 'd.json',
      configuration: {},
    } as never,
    rows,
    ['a', 'b', 'c', 'd'],
  )
  expect(document.run.configuration.live_evals?.fault_profiles).toHaveLength(2)
})
