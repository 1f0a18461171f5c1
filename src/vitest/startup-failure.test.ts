import { describe, expect, test } from 'vitest'
import { ResultsDirectoryError } from '../artifacts/index.ts'
import { HarnessConfigError } from '../config/index.ts'
import { DatasetValidationError } from '../scenarios/index.ts'
import { RunPlanProblem } from './run-plan.ts'
import { startupFailureText } from './startup-failure.ts'

describe('startupFailureText', () => {
  test("a user's problem is its message, every problem listed, without a stack", () => {
    const dataset = new DatasetValidationError([
      { file: '/d.json', path: 'schema_version', message: 'schema_version must be "1.0"' },
      { file: '/d.json', scenarioId: 'a', path: 'scenarios[0].title', message: 'missing required field' },
    ])
    const text = startupFailureText('crawl', dataset)
    expect(text).toContain('live-evals: the CRAWL run cannot start')
    expect(text).toContain('schema_version must be "1.0"')
    expect(text).toContain('scenarios[0].title [scenario a]: missing required field')
    for (const error of [dataset, new HarnessConfigError(['one', 'two']), new RunPlanProblem('bad max')]) {
      expect(startupFailureText('crawl', error)).not.toMatch(/\n\s+at /)
    }
    expect(startupFailureText('crawl', new HarnessConfigError(['one', 'two']))).toContain('- one\n- two')
  })

  test('a results folder refusal is its one sentence', () => {
    const sentence =
      "Results folder /r is a symbolic link (to /elsewhere); live-evals writes only into a real folder, so give the folder's own path."
    expect(startupFailureText('crawl', new ResultsDirectoryError('/r', sentence))).toBe(
      `live-evals: the CRAWL run cannot start; nothing was run and no run directory was created.\n${sentence}\n`,
    )
  })

  test('anything else is a bug and keeps its stack', () => {
    expect(startupFailureText('crawl', new TypeError('undefined is not a function'))).toMatch(
      /TypeError: undefined is not a function\n\s+at /,
    )
  })
})
