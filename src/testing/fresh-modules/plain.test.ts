// One of the two files of the fresh-modules check (../fresh-modules.test.ts): our modules as they are.
import { expect, test } from 'vitest'
import { countThisFile } from './fresh-modules.test-helpers.ts'
import { greet } from './greets.test-helpers.ts'

test('this file evaluates our modules afresh, unmocked', () => {
  expect(countThisFile('plain')).toBe(1)
  expect(greet()).toBe('real greeting')
})
