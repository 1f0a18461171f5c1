import { enableCompileCache } from 'node:module'
import { availableParallelism } from 'node:os'
import path from 'node:path'
import { defineConfig } from 'vitest/config'
import { withTestHeap } from './src/testing/test-heap.test-helpers.ts'
import { liveEvalsProject } from './src/vitest/project.ts'
import SlowFilesFirst from './src/vitest/slow-files-first.test-helpers.ts'

// One Vitest project per concern: `unit` holds the colocated module tests and never opens a GPT-Live session;
// each evaluation phase is one live-evals project (custom runner, matchers, run plan, canonical reporter, and a
// plugin that resolves the phase's settings from its module-owned config.toml and the LIVE_EVALS_* / OPENAI_*
// environment variables once, then sets concurrency, timeouts, attachments, sharding and watch triggers).
// `npx vitest run specs/crawl` runs the CRAWL evaluation; `vitest run --project unit` runs the unit tests.

// V8's code cache for every module Node loads, kept between processes: this main process, its test workers and
// the child Vitest runs of the integration tests (they inherit the variable) each compile vitest, vite and the
// openai SDK afresh otherwise, and those compiles were a tenth of the unit project's CPU (bench/test-cpu.ts).
process.env.NODE_COMPILE_CACHE ??= path.join(
  import.meta.dirname,
  'node_modules',
  '.cache',
  'node-compile-cache',
)
enableCompileCache(process.env.NODE_COMPILE_CACHE)
// A young generation of 2 MB for the workers and what they start: about a tenth less CPU for the unit run, within
// a noise about as large, since V8 sizes it by the machine's memory otherwise (src/testing/test-heap.test-helpers.ts
// gives the six alternating pairs measured).
process.env.NODE_OPTIONS = withTestHeap(process.env.NODE_OPTIONS)

export default defineConfig({
  test: {
    // Two workers more than cores. Many unit files wait more than they compute (child Vitest runs, real-time
    // calls, packing): with a worker per core the unit files' CPU came to 42% of two cores over the run's wall
    // time (452 of 2 x 534 s, bench/test-cpu.ts); the extra workers compute while others wait. More do not pay:
    // with 6 on two cores (`bench/test-cpu.ts --timeline --maxWorkers 6`, alternating with 4) the idle stretches
    // were gone but the same work took 626-642 CPU s against 543-570, and the run 342-348 s against 326-329.
    // Nor one more or one fewer (`bench/test-cpu.ts --before <checkout> --no-cache`, one pair each, 2026-12-04):
    // with 5 the work took 720 CPU s against 626 (every process computes slower beside more) and the run 396 s
    // against 361; with 3 it took 593 against 588 but the cores idled more, and the run took 374 s against 338.
    maxWorkers: availableParallelism() + 2,
    // Longest first, by Vitest's timings or on a fresh clone by src/vitest/test-durations.test.json, with the files
    // that mostly wait spread out (src/vitest/worker-schedule.test-helpers.ts).
    // `npm test` runs the unit project, then the three suites, as two invocations. One invocation of all four
    // projects, the suites ordered among the unit files (branch wt/combined, 3f42ca1), was no faster: over four
    // alternating fresh-clone rounds of `npm test` (2026-12-04), 399-414 s (mean 406) against 373-432 s (mean 409),
    // and 704-712 CPU s against 702-775 in the two rounds that counted CPU. The unit files ran slower beside the
    // suites' busy workers: 1,449 s of summed file time against 1,310 in the first round.
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'reporters/**/*.test.ts', 'bin/**/*.test.ts'],
          environment: 'node',
          // No unit test reaches the internet by accident: an openai client built without a baseURL (the judge's,
          // the observer's, the preflight's) reads OPENAI_BASE_URL, here a closed loopback port. A test that talks
          // to a server names it (an explicit baseURL, or vi.stubEnv). Held by src/testing/unit-environment.test.ts.
          env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
          testTimeout: 20_000,
          // A worker runs file after file in one process (no fresh process per file), and the setup file gives
          // each file fresh copies of our own modules and puts back the signal listeners and environment variables
          // it found: a quarter less CPU for the unit run (737 against 982 CPU s, bench/test-cpu.ts), since the
          // packages every file imports load once per worker. Other process-wide changes (fake timers, a umask, the
          // time zone) are undone by the file that makes them; Vitest restores spies and mocks after each file.
          isolate: false,
          setupFiles: ['src/testing/fresh-modules-setup.test-helpers.ts'],
          // The run's own temporary folder (TMPDIR), removed at the end; the package built, packed and installed
          // once per run, for the tests that need it (src/package/); the child Vitest runs that several test files
          // only read, run once per run (src/vitest/shared-child-run.*).
          globalSetup: [
            'src/testing/run-temp-folder-setup.test-helpers.ts',
            'src/package/shared-package-setup.test-helpers.ts',
            'src/vitest/shared-child-run-setup.test-helpers.ts',
          ],
        },
      },
      liveEvalsProject({ phase: 'crawl', config: 'specs/crawl/config.toml' }),
      liveEvalsProject({ phase: 'walk', config: 'specs/walk/config.toml' }),
      liveEvalsProject({ phase: 'run', config: 'specs/run/config.toml' }),
    ],
  },
})
