// The scenario fixtures are the real parts of a run: a child Vitest runs src/vitest/fixtures/wiring (in the shared
// run of the fixture projects), whose spec reads toolState and callerAudio after liveSession ran (see that spec for
// the assertions), offline, in both architectures, on the bundled booking scenario (its config.toml's dataset).
import { expect, test } from 'vitest'
import { SPAWN_TIMEOUT_MS } from './child-vitest.test-helpers.ts'
import { fixtureProjectPart } from './fixture-projects.test-helpers.ts'

test(
  'toolState is the booked application and callerAudio the streamed audio, also when overridden',
  async () => {
    // The wiring project's part of the shared run of the fixture projects (fixture-projects.test-helpers.ts).
    const part = await fixtureProjectPart('wiring')
    expect(part.files.get('fixtures.spec.ts')?.status, part.run.output).toBe('passed')
    expect(
      part.tests.map((test) => test.status),
      part.run.output,
    ).toEqual(['passed', 'passed', 'passed', 'passed'])
    // Both architectures, each its two tests.
    expect(part.tests.map((test) => test.fullName.split(' ')[0]).sort()).toEqual([
      'client',
      'client',
      'responses',
      'responses',
    ])
  },
  SPAWN_TIMEOUT_MS,
)
