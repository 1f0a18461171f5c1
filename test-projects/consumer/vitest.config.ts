// A team's vitest.config.ts: one line per phase.

import { liveEvalsProject } from 'live-evals/vitest'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { projects: [liveEvalsProject({ phase: 'crawl', config: 'crawl.toml' })] },
})
