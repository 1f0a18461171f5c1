import { describe, expect, test } from 'vitest'
import type { FinishedScenarioTest } from './run-results.ts'
import { runSummaryLine } from './summary-line.ts'

const finished = (state: FinishedScenarioTest['state']): FinishedScenarioTest => ({
  name: state,
  state,
  meta: undefined,
  errors: [],
})

describe("the run's closing line", () => {
  test('counts the passed and failed scenario tests', () => {
    expect(runSummaryLine([finished('passed'), finished('failed'), finished('skipped')], [])).toBe(
      '1 passed, 1 failed',
    )
  })

  test('a run that did not start says so after its counts, which stay for the scripts that read them', () => {
    expect(runSummaryLine([], ['crawl'])).toBe(
      '0 passed, 0 failed; the CRAWL run did not start (its problem is above), nothing of it was written',
    )
    expect(runSummaryLine([finished('passed')], ['crawl', 'walk', 'run'])).toBe(
      '1 passed, 0 failed; the CRAWL, WALK and RUN runs did not start (their problems are above), nothing of them was written',
    )
  })

  test('a spec file that failed before its scenarios ran is named: `1 passed, 0 failed` alone reads as a pass', () => {
    expect(runSummaryLine([finished('passed')], [], ['specs/crawl/typo.spec.ts'])).toBe(
      '1 passed, 0 failed; 1 spec file failed before its scenarios ran (specs/crawl/typo.spec.ts), so the results are marked incomplete',
    )
  })
})
