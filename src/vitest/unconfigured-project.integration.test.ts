// A spec file in a Vitest project that liveEvalsProject() did not build fails with an error that names that project
// (as the user named it), the import an installed user writes, and where to run Vitest from.
import { describe, expect, test } from 'vitest'
import { runVitest, SPAWN_TIMEOUT_MS, scratch } from './child-vitest.test-helpers.ts'

describe('a project not built with liveEvalsProject()', () => {
  test(
    'its spec file fails naming the project, the live-evals/vitest import and where to run from',
    async () => {
      const { env } = await scratch()
      const run = await runVitest(
        ['run', '--config', 'src/vitest/fixtures/unconfigured/vitest.config.ts'],
        env,
      )
      expect(run.code, run.output).toBe(1)
      expect(run.output).toContain(
        'Vitest project "plain-evals" runs live-evals suites but was not configured for them. In vitest.config.ts, ' +
          "build it with liveEvalsProject({ phase, config }) (import { liveEvalsProject } from 'live-evals/vitest')",
      )
      expect(run.output).toContain('run Vitest from the folder that holds that vitest.config.ts')
    },
    SPAWN_TIMEOUT_MS,
  )
})
