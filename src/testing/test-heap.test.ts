// The test run's heap option (test-heap.test-helpers.ts): added to NODE_OPTIONS unless a semi-space size is given,
// present in this worker, and in effect in a process a test starts with a child's environment.
import { execFileSync } from 'node:child_process'
import { describe, expect, test } from 'vitest'
import { testChildEnvironment } from './child-environment.test-helpers.ts'
import { TEST_HEAP_OPTION, withTestHeap } from './test-heap.test-helpers.ts'

describe('the test run’s heap option', () => {
  test('is added to NODE_OPTIONS, after what is there, unless the semi-space is sized already', () => {
    expect(withTestHeap(undefined)).toBe(TEST_HEAP_OPTION)
    expect(withTestHeap('  ')).toBe(TEST_HEAP_OPTION)
    expect(withTestHeap('--enable-source-maps')).toBe(`--enable-source-maps ${TEST_HEAP_OPTION}`)
    expect(withTestHeap('--max-semi-space-size=16')).toBe('--max-semi-space-size=16')
    expect(withTestHeap('--inspect --min-semi-space-size 1')).toBe('--inspect --min-semi-space-size 1')
    // Another option whose name merely contains the words is not a size.
    expect(withTestHeap('--no-max-semi-space-sizes-x')).toBe(
      `--no-max-semi-space-sizes-x ${TEST_HEAP_OPTION}`,
    )
  })

  test('this worker has it (vitest.config.ts), or a semi-space size of the developer’s own', () => {
    expect(withTestHeap(process.env.NODE_OPTIONS)).toBe(process.env.NODE_OPTIONS)
  })

  test('a process started with a child’s environment keeps its young generation at two 2 MB semi-spaces', () => {
    const env = testChildEnvironment()
    expect(env.NODE_OPTIONS).toBe(TEST_HEAP_OPTION)
    // Some 40 MB of short-lived objects: uncapped, V8 grew the new space to 64 MB here.
    const script = `
      const v8 = require('node:v8')
      let kept = 0
      for (let round = 0; round < 20; round++) {
        const garbage = Array.from({ length: 50_000 }, (_, index) => ({ index, text: 'x' + index }))
        kept += garbage.length
      }
      const space = v8.getHeapSpaceStatistics().find((candidate) => candidate.space_name === 'new_space')
      process.stdout.write(String(space.space_size) + ' ' + kept)`
    const [newSpaceBytes] = execFileSync(process.execPath, ['-e', script], { env, encoding: 'utf8' }).split(
      ' ',
    )
    expect(Number(newSpaceBytes)).toBeGreaterThan(0)
    expect(Number(newSpaceBytes)).toBeLessThanOrEqual(2 * 2 * 1024 * 1024)
  })
})
