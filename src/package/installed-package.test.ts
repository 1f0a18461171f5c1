// The package as a team installs it: the checkout is built and packed (`npm pack`), the tarball is installed
// offline (from the npm cache `npm ci` filled) into a fresh project that has only vitest and live-evals, and that
// project (test-projects/consumer: one vitest.config.ts line, a spec with an inline scenario and its own
// assistant) runs offline on the checkout's Node and writes results.json. Its spec is type-checked against the
// package's .d.ts, and a deliberate type error must be reported.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { ResultsDocumentSchema } from '../reporting/result-schema.ts'
import {
  installConsumerProject,
  NODE,
  type Ran,
  ROOT,
  run,
  SHARED_PACKAGE_TIMEOUT_MS,
  userEnvironment,
} from './consumer-project.test-helpers.ts'

describe('npm pack, install into a fresh project, run offline', () => {
  let consumer = ''
  let installed: Ran = { status: null, output: '', stdout: '', stderr: '' }
  let tarball = ''

  beforeAll(async () => {
    ;({ consumer, installed, tarball } = await installConsumerProject())
  }, SHARED_PACKAGE_TIMEOUT_MS)

  test('the tarball holds the compiled package and its data files, and no tests', () => {
    const list = run('tar', ['-tzf', tarball], consumer).output.split('\n')
    expect(list).toContain('package/dist/src/index.js')
    expect(list).toContain('package/dist/src/index.d.ts')
    expect(list).toContain('package/dist/src/vitest/project.js')
    expect(list).toContain('package/dist/reporters/canonical.js')
    expect(list).toContain('package/dist/src/assistants/responses/prompts/voice.txt')
    expect(list).toContain('package/dist/src/assistants/client/tools/definitions.json')
    expect(list).toContain('package/bin/live-evals.js')
    // The effects' WebAssembly (the phone line, the room mix): read beside their modules at run time.
    expect(list).toContain('package/dist/src/audio/effects/assets/phone-line.wasm')
    expect(list).toContain('package/dist/src/audio/effects/assets/room-mix.wasm')
    expect(list.filter((entry) => /\.test\.|\/fixtures\/|\.ts$(?<!\.d\.ts)/.test(entry))).toEqual([])
  })

  test('installs offline with only vitest beside it', () => {
    expect(installed.status, installed.output).toBe(0)
    expect(readdirSync(join(consumer, 'node_modules'))).toContain('live-evals')
  })

  test('the installed command runs', () => {
    const help = run(
      NODE,
      [join(consumer, 'node_modules/live-evals/bin/live-evals.js'), '--help'],
      consumer,
      userEnvironment(),
    )
    expect(help.status, help.output).toBe(0)
    expect(help.output).toMatch(/^Usage: live-evals <command>/)
  })

  test('the spec runs offline and writes results.json with its own scenario passed in both architectures', {
    timeout: 240_000,
  }, () => {
    const vitest = run(
      NODE,
      [join(consumer, 'node_modules/vitest/vitest.mjs'), 'run'],
      consumer,
      userEnvironment(),
    )
    expect(vitest.status, vitest.output).toBe(0)
    expect(vitest.output).toContain('2 passed, 0 failed')
    const resultsDir = join(consumer, 'results/crawl')
    const runs = readdirSync(resultsDir).filter((name) => !name.startsWith('.'))
    expect(runs).toHaveLength(2)
    for (const name of runs) {
      const document = ResultsDocumentSchema.parse(
        JSON.parse(readFileSync(join(resultsDir, name, 'results.json'), 'utf8')),
      )
      expect(document.results.map((row) => [row.scenario_id, row.status])).toEqual([['add_milk', 'passed']])
    }
  })

  test('the .d.ts type the consumer: its spec and config check, the deliberate error is reported', () => {
    const tsc = run(
      NODE,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
      consumer,
      userEnvironment(),
    )
    expect(tsc.status).not.toBe(0)
    const errors = tsc.output.split('\n').filter((line) => /error TS\d+/.test(line))
    expect(errors.length, tsc.output).toBeGreaterThan(0)
    expect(errors.every((line) => line.startsWith('type-error.ts'))).toBe(true)
    expect(tsc.output).toContain('"sometimes"')
  })
})
