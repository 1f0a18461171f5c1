import { defineConfig } from 'vitest/config'
import { liveEvalsProject } from './src/vitest/project.ts'

// One Vitest project per concern: `unit` holds the colocated module tests and never opens a GPT-Live session;
// each evaluation phase is a live-evals project (custom runner, matchers, run plan, canonical reporter) whose
// settings come from its module-owned config.toml and the LIVE_EVALS_* / OPENAI_* environment variables.
// `npx vitest run specs/crawl` runs the CRAWL evaluation; `vitest run --project unit` runs the unit tests.
export default defineConfig({
  test: {
    // Vitest copies every attached file (each scenario's audio, for `vitest --ui`) here, once per run: keep
    // those copies with the other generated run output, which git and the linter already ignore.
    attachmentsDir: 'results/.attachments',
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'reporters/**/*.test.ts', 'bin/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
        },
      },
      liveEvalsProject({ phase: 'crawl', config: 'specs/crawl/config.toml' }),
    ],
  },
})
