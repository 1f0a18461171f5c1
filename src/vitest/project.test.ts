// liveEvalsProject() refuses a phase it does not know when vitest.config.ts loads (a typo in plain JavaScript or
// behind a cast), instead of a project whose include finds nothing and whose run reports "0 passed, 0 failed".
import { expect, test } from 'vitest'
import type { Phase } from '../config/schema.ts'
import { liveEvalsProject } from './project.ts'

test('an unknown phase is refused, naming it and the valid phases', () => {
  expect(() => liveEvalsProject({ phase: 'crwal' as Phase })).toThrow(
    "liveEvalsProject({ phase: \"crwal\" }): unknown phase; use one of 'crawl', 'walk', 'run'",
  )
  expect(() => liveEvalsProject({} as { phase: Phase })).toThrow(
    'liveEvalsProject({ phase: undefined }): unknown phase',
  )
})

test('a known phase includes specs/<phase>/**/*.spec.ts unless include says otherwise', () => {
  expect(liveEvalsProject({ phase: 'walk' }).test?.include).toEqual(['specs/walk/**/*.spec.ts'])
  expect(liveEvalsProject({ phase: 'crawl', include: ['evals/**/*.spec.ts'] }).test?.include).toEqual([
    'evals/**/*.spec.ts',
  ])
})
