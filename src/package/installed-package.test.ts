// The package as a team installs it: the checkout is built and packed (`npm pack`), the tarball is installed
// offline (from the npm cache `npm ci` filled) into a fresh project that has only vitest and live-evals
// (test-projects/consumer: one vitest.config.ts line, a spec with an inline scenario and its own assistant). Its
// spec and config are type-checked against the package's .d.ts, and two deliberate errors must be reported: the
// consumer's own (type-error.ts) and a misspelled expected-tool field (test-projects/authoring/nam-typo.ts).
// That project's runs are other files' tests, each on its own copy of it: first-run.consumer.test.ts (without its
// TOML; its first run checks every row of results.json), readme-commands.test.ts (the README's project, with a
// TOML, run twice, and a state mismatch shown in the console and the report), explain.consumer.test.ts.
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  installConsumerProject,
  NODE,
  type Ran,
  ROOT,
  run,
  SHARED_PACKAGE_TIMEOUT_MS,
  userEnvironment,
} from './consumer-project.test-helpers.ts'

// A child tsc on a shared two-core machine: minutes, not the unit project's 20 s.
const CHILD_TIMEOUT_MS = 240_000

describe('npm pack, install into a fresh project, type-check it', () => {
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

  test("the installed package's loop waker thread starts and wakes the loop (a broken one would fall back silently)", () => {
    const waker = join(consumer, 'node_modules/live-evals/dist/src/audio/loop-waker.js')
    const script = [
      `const { createLoopWaker, loopNowMs } = await import(${JSON.stringify(waker)})`,
      'const waker = createLoopWaker()',
      'const started = waker.wakeAt(loopNowMs() + 1)',
      'while (waker.wakes === 0) await new Promise((resolve) => setTimeout(resolve, 1))',
      'await waker.stop()',
      "console.log('started', started, 'woke', waker.wakes)",
    ].join('\n')
    const woke = run(NODE, ['--input-type=module', '-e', script], consumer, userEnvironment())
    expect(woke.status, woke.output).toBe(0)
    expect(woke.stdout.trim()).toBe('started true woke 1')
  })

  test(
    'the .d.ts type the consumer: its spec and config check, the deliberate error and a misspelled expected tool field ({ nam: "x" }) are reported',
    () => {
      // One tsc for both errors (each file's errors are told apart by its path): the .d.ts load is most of its
      // work, and a second tsc for the typo file alone cost 0.9 CPU s (`/usr/bin/time` on it).
      mkdirSync(join(consumer, 'authoring'), { recursive: true })
      cpSync(join(ROOT, 'test-projects/authoring/nam-typo.ts'), join(consumer, 'authoring/nam-typo.ts'))
      writeFileSync(
        join(consumer, 'tsconfig.with-typo.json'),
        JSON.stringify({
          extends: './tsconfig.json',
          include: ['specs', 'vitest.config.ts', 'type-error.ts', 'authoring/nam-typo.ts'],
        }),
      )
      const tsc = run(
        NODE,
        [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.with-typo.json'],
        consumer,
        userEnvironment(),
      )
      expect(tsc.status).not.toBe(0)
      const errors = tsc.output.split('\n').filter((line) => /error TS\d+/.test(line))
      const own = errors.filter((line) => line.startsWith('type-error.ts'))
      const typo = errors.filter((line) => line.startsWith('authoring/nam-typo.ts'))
      expect(own.length, tsc.output).toBeGreaterThan(0)
      expect(tsc.output).toContain('"sometimes"')
      expect(typo, tsc.output).toHaveLength(1)
      expect(typo[0]).toMatch(
        /^authoring\/nam-typo\.ts\(9,\d+\): error TS(2353|2561): .*'nam' does not exist.*Did you mean to write 'name'\?/,
      )
      // Nothing else: the spec and vitest.config.ts type-check against the package.
      expect(errors.length, tsc.output).toBe(own.length + typo.length)
    },
    CHILD_TIMEOUT_MS,
  )
})
