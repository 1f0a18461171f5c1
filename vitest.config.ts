import { defineConfig } from 'vitest/config'
import { attachmentsDirectoryFor } from './src/vitest/attachments.ts'
import { liveEvalsProject } from './src/vitest/project.ts'

const CRAWL_CONFIG = 'specs/crawl/config.toml'

// One Vitest project per concern: `unit` holds the colocated module tests and never opens a GPT-Live session;
// each evaluation phase is a live-evals project (custom runner, matchers, run plan, canonical reporter) whose
// settings come from its module-owned config.toml and the LIVE_EVALS_* / OPENAI_* environment variables.
// `npx vitest run specs/crawl` runs the CRAWL evaluation; `vitest run --project unit` runs the unit tests.
export default defineConfig({
  test: {
    // Vitest copies every attached file (each scenario's audio, for `vitest --ui`) here, once per run: keep
    // those copies with the run output, in `<results dir>/.attachments` (LIVE_EVALS_RESULTS_DIR or the TOML's
    // execution.results_dir; default results/crawl/). The phase's global setup creates it 0700 before tests run.
    attachmentsDir: attachmentsDirectoryFor('crawl', CRAWL_CONFIG),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'reporters/**/*.test.ts', 'bin/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
        },
      },
      liveEvalsProject({ phase: 'crawl', config: CRAWL_CONFIG }),
    ],
  },
})
