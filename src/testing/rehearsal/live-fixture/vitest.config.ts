// The dress rehearsal's child Vitest (the shared run `rehearsal`, rehearsal-run.test-helpers.ts): the bundled
// CRAWL and WALK suites and CRAWL under fault profiles, as three projects of one run, one Vitest start and one set
// of workers instead of a run each. Each project reads its config.toml from the folder REHEARSAL_CONFIG_DIR names,
// which the run's starter writes first. The spec files are the bundled ones but for the config.toml they name (a
// bundled spec refuses a project configured with another file): the specs here name none, so each reads its
// project's.
import { join } from 'node:path'
import { defineConfig } from 'vitest/config'
import { liveEvalsProject } from '../../../vitest/project.ts'

const folder = process.env.REHEARSAL_CONFIG_DIR
if (folder === undefined)
  throw new Error('REHEARSAL_CONFIG_DIR names the folder of the projects’ config.toml files')

const spec = (phase: string) => `src/testing/rehearsal/live-fixture/${phase}.spec.ts`

export default defineConfig({
  test: {
    // A worker per project: the audio is paced in real time, so the three spec files wait side by side rather than
    // one after another (Vitest's default on two cores is one worker: a run three times as long).
    maxWorkers: 3,
    projects: [
      liveEvalsProject({ phase: 'crawl', config: join(folder, 'crawl.toml'), include: [spec('crawl')] }),
      liveEvalsProject({ phase: 'walk', config: join(folder, 'walk.toml'), include: [spec('walk')] }),
      liveEvalsProject({
        phase: 'crawl',
        config: join(folder, 'crawl-faults.toml'),
        include: [spec('crawl')],
        name: 'crawl-faults',
      }),
    ],
  },
})
