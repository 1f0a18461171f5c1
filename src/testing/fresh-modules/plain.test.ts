// One of the two files of the fresh-modules check (../fresh-modules.test.ts): our modules as they are.
import { expect, test } from 'vitest'
import { arriveAndLeaveTraces, FRESH } from './fresh-modules.test-helpers.ts'
import { greet } from './greets.test-helpers.ts'

test('this file finds our modules fresh, unmocked, and nothing another file left on the process', () => {
  expect(arriveAndLeaveTraces('plain')).toEqual(FRESH)
  expect(greet()).toBe('real greeting')
})
