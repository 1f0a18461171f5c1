import { defineConfig } from 'vitest/config'
import { liveEvalsProject } from './src/vitest/project.ts'

// One Vitest project per concern: `unit` holds the colocated module tests and never opens a GPT-Live session;
// each evaluation phase is one live-evals project (custom runner, matchers, run plan, canonical reporter, and a
// plugin that resolves the phase's settings from its module-owned config.toml and the LIVE_EVALS_* / OPENAI_*
// environment variables once, then sets concurrency, timeouts, attachments, sharding and watch triggers).
// `npx vitest run specs/crawl` runs the CRAWL evaluation; `vitest run --project unit` runs the unit tests.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'reporters/**/*.test.ts', 'bin/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          // The package built, packed and installed once per run, for the tests that need it (src/package/).
          globalSetup: ['src/package/shared-package-setup.test-helpers.ts'],
        },
      },
      liveEvalsProject({ phase: 'crawl', config: 'specs/crawl/config.toml' }),
      liveEvalsProject({ phase: 'walk', config: 'specs/walk/config.toml' }),
      liveEvalsProject({ phase: 'run', config: 'specs/run/config.toml' }),
    ],
  },
})
