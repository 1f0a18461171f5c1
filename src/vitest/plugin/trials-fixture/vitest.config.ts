// The trials fixture project: run by src/vitest/plugin/trials.integration.test.ts in a child Vitest.
import { defineConfig } from 'vitest/config'
import { liveEvalsProject } from '../../project.ts'

export default defineConfig({
  test: {
    projects: [
      liveEvalsProject({
        phase: 'crawl',
        config: 'src/vitest/plugin/trials-fixture/crawl.toml',
        include: ['src/vitest/plugin/trials-fixture/*.spec.ts'],
        name: 'crawl-trials',
      }),
    ],
  },
})
