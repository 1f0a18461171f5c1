// The models fixture project: run by src/vitest/plugin/models.integration.test.ts in a child Vitest.
import { defineConfig } from 'vitest/config'
import { liveEvalsProject } from '../../project.ts'

export default defineConfig({
  test: {
    projects: [
      liveEvalsProject({
        phase: 'crawl',
        config: 'src/vitest/plugin/models-fixture/crawl.toml',
        include: ['src/vitest/plugin/models-fixture/*.spec.ts'],
        name: 'crawl-models',
      }),
    ],
  },
})
