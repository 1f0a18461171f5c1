// The verdict's trace in the details JSON: written when the test's assertions changed the row, and only then.
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { bookingScenario } from '../grading/grading-fixtures.ts'
import { infrastructureErrorRow } from '../reporting/result-item.ts'
import type { ScenarioRun } from './scenario-run.ts'
import { applyAssertionFailures } from './verdict.ts'
import { recordVerdict } from './verdict-record.ts'

async function runWithDetails(): Promise<ScenarioRun & { detailsPath: string }> {
  const runDirectory = await mkdtemp(join(tmpdir(), 'live-evals-verdict-'))
  const detailsPath = join(runDirectory, 'transcripts', 'restaurant_001.json')
  await mkdir(join(runDirectory, 'transcripts'))
  await writeFile(detailsPath, JSON.stringify({ example_id: 'restaurant_001' }))
  // A graded row without checks: the assertion failure below turns it into a failed row with one check.
  const graded = { ...infrastructureErrorRow({ scenario_id: 'restaurant_001', stage: 'x', message: '' }) }
  return {
    interaction: 'single_turn',
    scenarioId: 'restaurant_001',
    architecture: 'responses',
    expected: bookingScenario().expected,
    observation: null,
    grade: null,
    failure: null,
    row: { ...graded, status: 'passed', error: null },
    detailsPath,
  }
}

test('a row the assertions changed leaves its status and assessment in the details', async () => {
  const run = await runWithDetails()
  const changed = applyAssertionFailures(run.row, [{ id: 'assertion:toCompleteTask', message: 'no' }])
  await recordVerdict(run, changed)
  const details = JSON.parse(await readFile(run.detailsPath, 'utf8'))
  expect(details.example_id).toBe('restaurant_001')
  expect(details.verdict).toEqual({ status: 'failed', assessment: changed.assessment })
  expect(details.verdict.assessment.checks).toContainEqual({
    id: 'assertion:toCompleteTask',
    status: 'failed',
    required: true,
  })
})

test('a row the assertions left alone leaves the details as they were', async () => {
  const run = await runWithDetails()
  const before = await readFile(run.detailsPath, 'utf8')
  await recordVerdict(run, run.row)
  expect(await readFile(run.detailsPath, 'utf8')).toBe(before)
})

test('details that are not JSON are named in the error, with what still holds', async () => {
  const run = await runWithDetails()
  await writeFile(run.detailsPath, '{"example_id": "restaurant_001"')
  const changed = applyAssertionFailures(run.row, [{ id: 'assertion:toCompleteTask', message: 'no' }])
  await expect(recordVerdict(run, changed)).rejects.toThrow(
    `Scenario restaurant_001: cannot record the test's verdict in ${run.detailsPath}`,
  )
})
