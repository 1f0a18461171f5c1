// Authoring your own agent against the installed package (the tarball, in a fresh project): a misspelled
// expected-tool field is a type error from the package's .d.ts, and a state mismatch fails with the differing
// paths in the console and the run's report. The project is test-projects/consumer plus the files of
// test-projects/authoring (a typo file and a spec whose tool reaches the wrong state).
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  type InstalledConsumer,
  installConsumerProject,
  NODE,
  ROOT,
  run,
  SHARED_PACKAGE_TIMEOUT_MS,
  userEnvironment,
} from './consumer-project.test-helpers.ts'

const AUTHORING = join(ROOT, 'test-projects/authoring')
// A child tsc or Vitest on a shared two-core machine: minutes, not the unit project's 20 s.
const CHILD_TIMEOUT_MS = 240_000
const DIFF_LINE = 'tasks[0].title: expected "buy bread", got "buy milk"'

describe('authoring an agent with the installed package', () => {
  let installed: InstalledConsumer | null = null

  beforeAll(async () => {
    installed = await installConsumerProject('live-evals-authoring-')
    if (installed.installed.status !== 0) return
    const { consumer } = installed
    mkdirSync(join(consumer, 'authoring'))
    cpSync(join(AUTHORING, 'nam-typo.ts'), join(consumer, 'authoring/nam-typo.ts'))
    // Only this project's mismatch spec runs: the consumer's own spec is the installed-package test's.
    for (const spec of readdirSync(join(consumer, 'specs/crawl'))) rmSync(join(consumer, 'specs/crawl', spec))
    cpSync(join(AUTHORING, 'state-mismatch.spec.ts'), join(consumer, 'specs/crawl/state-mismatch.spec.ts'))
    writeFileSync(
      join(consumer, 'tsconfig.typo.json'),
      JSON.stringify({ extends: './tsconfig.json', include: ['authoring/nam-typo.ts'] }),
    )
  }, SHARED_PACKAGE_TIMEOUT_MS)

  test(
    'a misspelled expected tool field ({ nam: "x" }) is a type error from the .d.ts',
    () => {
      expect(installed?.installed.status, installed?.installed.output).toBe(0)
      if (installed === null) return
      const tsc = run(
        NODE,
        [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.typo.json'],
        installed.consumer,
        userEnvironment(),
      )
      const errors = tsc.output.split('\n').filter((line) => /error TS\d+/.test(line))
      expect(errors, tsc.output).toHaveLength(1)
      expect(errors[0]).toMatch(
        /^authoring\/nam-typo\.ts\(9,\d+\): error TS(2353|2561): .*'nam' does not exist.*Did you mean to write 'name'\?/,
      )
    },
    CHILD_TIMEOUT_MS,
  )

  test(
    'a state mismatch shows the differing path in the console and in the report',
    () => {
      expect(installed?.installed.status, installed?.installed.output).toBe(0)
      if (installed === null) return
      const vitest = run(
        NODE,
        [join(installed.consumer, 'node_modules/vitest/vitest.mjs'), 'run'],
        installed.consumer,
        { ...userEnvironment(), OPENAI_ASSISTANT_MODE: 'responses' },
      )
      expect(vitest.status, vitest.output).toBe(1)
      expect(vitest.output).toContain('application_state: The final state must match the expectation.')
      expect(vitest.output).toContain(DIFF_LINE)
      expect(vitest.output).not.toContain('"initial":')
      const resultsDir = join(installed.consumer, 'results/crawl')
      const [runName] = readdirSync(resultsDir).filter((name) => !name.startsWith('.'))
      const report = readFileSync(join(resultsDir, runName ?? '', 'report.html'), 'utf8')
      expect(report).toContain('expected vs final')
      expect(report).toContain(DIFF_LINE.replaceAll('"', '&quot;'))
    },
    CHILD_TIMEOUT_MS,
  )
})
