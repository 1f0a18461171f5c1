// The bundled CRAWL and WALK suites as two projects of one child Vitest, for the dress rehearsal
// (src/testing/rehearsal/live-rehearsal.test.ts): one Vitest start and one set of workers instead of a run per
// phase. Each phase reads its own config.toml (its dataset, concurrency, CRAWL's speech cache) from the folder
// REHEARSAL_CONFIG_DIR names, which the test writes before it starts the run. The spec files are the bundled ones
// but for the config.toml they name (a bundled spec refuses a project configured with another file): the specs
// here name none, so each reads its project's.
import { join } from 'node:path'
import { defineConfig } from 'vitest/config'
import { liveEvalsProject } from '../../../vitest/project.ts'

const folder = process.env.REHEARSAL_CONFIG_DIR
if (folder === undefined) throw new Error('REHEARSAL_CONFIG_DIR names the folder of crawl.toml and walk.toml')

const spec = (phase: string) => `src/testing/rehearsal/live-fixture/${phase}.spec.ts`

export default defineConfig({
  test: {
    projects: [
      liveEvalsProject({ phase: 'crawl', config: join(folder, 'crawl.toml'), include: [spec('crawl')] }),
      liveEvalsProject({ phase: 'walk', config: join(folder, 'walk.toml'), include: [spec('walk')] }),
    ],
  },
})
