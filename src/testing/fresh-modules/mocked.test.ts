// One of the two files of the fresh-modules check (../fresh-modules.test.ts): a module mocked, which must reach
// greets.test-helpers.ts even when the other file loaded the real one into this worker first.
import { expect, test, vi } from 'vitest'
import { countThisFile } from './fresh-modules.test-helpers.ts'
import { greet } from './greets.test-helpers.ts'

vi.mock('./greeting.test-helpers.ts', () => ({ greeting: () => 'mocked' }))

test('this file evaluates our modules afresh, and its mock reaches the module that imports the mocked one', () => {
  expect(countThisFile('mocked')).toBe(1)
  expect(greet()).toBe('mocked greeting')
})
