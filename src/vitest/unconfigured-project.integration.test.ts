// A spec file in a Vitest project that liveEvalsProject() did not build fails with an error that names that project
// (as the user named it), the import an installed user writes, and where to run Vitest from. The project
// "plain-evals" runs in the shared run of the fixture projects (src/vitest/fixtures/together), beside projects that
// are configured: what it lacks is its own.
import { describe, expect, test } from 'vitest'
import { SPAWN_TIMEOUT_MS } from './child-vitest.test-helpers.ts'
import { fixtureProjectPart } from './fixture-projects.test-helpers.ts'

const NOT_CONFIGURED =
  'Vitest project "plain-evals" runs live-evals suites but was not configured for them. In vitest.config.ts, ' +
  "build it with liveEvalsProject({ phase, config }) (import { liveEvalsProject } from 'live-evals/vitest')"

describe('a project not built with liveEvalsProject()', () => {
  test(
    'its spec file fails naming the project, the live-evals/vitest import and where to run from',
    async () => {
      // Not the run's exit code: other projects of the shared run fail on purpose, so it says nothing of this one.
      const { run, files, tests } = await fixtureProjectPart('unconfigured')
      const file = files.get('tiny.spec.ts')
      expect(file?.status, run.output).toBe('failed')
      expect(tests).toEqual([])
      expect(file?.message).toContain(NOT_CONFIGURED)
      expect(file?.message).toContain('run Vitest from the folder that holds that vitest.config.ts')
      expect(run.output).toContain(NOT_CONFIGURED)
    },
    SPAWN_TIMEOUT_MS,
  )
})
