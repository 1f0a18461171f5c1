// One of the two files of the fresh-modules check (../fresh-modules.test.ts): a module mocked, which must reach
// greets.test-helpers.ts even when the other file ran first and loaded the real one into this worker.
import { expect, test, vi } from 'vitest'
import { arriveAndLeaveTraces, FRESH } from './fresh-modules.test-helpers.ts'
import { greet } from './greets.test-helpers.ts'

vi.mock('./greeting.test-helpers.ts', () => ({ greeting: () => 'mocked' }))

test('this file finds our modules fresh, its mock in place, and nothing another file left on the process', () => {
  expect(arriveAndLeaveTraces('mocked')).toEqual(FRESH)
  expect(greet()).toBe('mocked greeting')
})
