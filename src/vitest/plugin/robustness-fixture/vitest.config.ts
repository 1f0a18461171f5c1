// The robustness fixture project alone: run by src/vitest/plugin/robustness.integration.test.ts in a child Vitest
// for the recording whose file is missing (its dataset named by LIVE_EVALS_DATASET).
import { defineConfig } from 'vitest/config'
import { liveEvalsProject } from '../../project.ts'

export default defineConfig({
  test: {
    projects: [
      liveEvalsProject({
        phase: 'walk',
        config: 'src/vitest/plugin/robustness-fixture/walk.toml',
        include: ['src/vitest/plugin/robustness-fixture/*.spec.ts'],
        name: 'walk-robustness',
      }),
    ],
  },
})
