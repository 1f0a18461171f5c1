// What Vitest's main process loads of live-evals: the config's plugin, the startup and the settings, the phase
// descriptions, the global setup and the canonical reporter. It plans the run and writes the results; it never
// connects, synthesises or grades, so it must not load the openai SDK, the WebSocket client, the audio DSP or a
// phase's driver: together they cost the main process of every run (every `vitest run`, every child run of our
// own tests) about half a second of CPU when one static import drags them in. The walk follows static imports
// only: a dynamic import() is how a module defers what only some runs need (the live preflight, a phase in a
// worker).
import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { parseSync } from 'vite'
import { describe, expect, test } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')

const MAIN_PROCESS_ENTRIES = [
  'src/vitest/project.ts',
  'src/vitest/plugin/startup.ts',
  'src/vitest/settings.ts',
  'src/phases/descriptions.ts',
  'src/vitest/global-setup.ts',
  'reporters/canonical.ts',
]

/** Packages only a connection, an audio effect or a worker needs. */
const WORKER_ONLY_PACKAGES = [
  'openai',
  'ws',
  'alawmulaw',
  '@echogarden/speex-resampler-wasm',
  '@echogarden/fvad-wasm',
]

/**
 * Our modules that only a running scenario needs: the phases themselves (their descriptions are the main
 * process's), the live sessions, the offline servers, the assistants' frontends and backends, the audio DSP.
 * Small pure modules elsewhere under src/assistants/ (an endpoint check, a fault's shape) are fine.
 */
const WORKER_ONLY_MODULES = [
  /^src\/phases\/(crawl|walk|run)\/index\.ts$/,
  /^src\/phases\/registry\.ts$/,
  /^src\/live\//,
  /^src\/testing\//,
  /^src\/assistants\/(frontend|client|architectures\/index\.ts)/,
  /^src\/audio\/(resampler|synthesis)\.ts$/,
  /^src\/audio\/effects\/(telephony|phone-line|room-mix|wasm-module)\.ts$/,
]

/**
 * Specifiers a module loads when it is evaluated: its imports and re-exports, except `import type` and
 * `export type` statements (`import { type A }` still loads its module as stripped TypeScript).
 */
function staticSpecifiers(file: string): string[] {
  const code = readFileSync(file, 'utf8')
  const { module, errors } = parseSync(file, code)
  if (errors.length > 0) throw new Error(`${file} does not parse: ${errors[0]?.message}`)
  const typeOnly = (start: number) => {
    const statement = /(import|export)\s+type\s/y
    statement.lastIndex = start
    return statement.test(code)
  }
  return [
    ...module.staticImports
      .filter((entry) => !typeOnly(entry.start))
      .map((entry) => entry.moduleRequest.value),
    ...module.staticExports
      .filter((entry) => !typeOnly(entry.start))
      .flatMap((entry) => entry.entries.map((exported) => exported.moduleRequest?.value ?? null))
      .filter((specifier) => specifier !== null),
  ]
}

const packageOf = (specifier: string) =>
  specifier.startsWith('@')
    ? specifier.split('/').slice(0, 2).join('/')
    : (specifier.split('/')[0] ?? specifier)

interface Reached {
  /** Our modules, relative to the repository, each with the module that first imported it. */
  modules: Map<string, string | null>
  /** Packages, each with the module of ours that first imported it. */
  packages: Map<string, string>
}

function reachedFrom(entries: readonly string[]): Reached {
  const modules = new Map<string, string | null>(entries.map((entry) => [entry, null]))
  const packages = new Map<string, string>()
  const queue = [...entries]
  for (let module = queue.shift(); module !== undefined; module = queue.shift()) {
    for (const specifier of staticSpecifiers(resolve(ROOT, module))) {
      if (specifier.startsWith('node:')) continue
      if (!specifier.startsWith('.')) {
        if (!packages.has(packageOf(specifier))) packages.set(packageOf(specifier), module)
        continue
      }
      const target = relative(ROOT, resolve(ROOT, dirname(module), specifier))
      if (modules.has(target)) continue
      modules.set(target, module)
      queue.push(target)
    }
  }
  return { modules, packages }
}

/** How `module` was reached from an entry, as a chain of imports (for the failure message). */
function chainTo(reached: Reached, module: string): string {
  const chain = [module]
  for (let from = reached.modules.get(module); from != null; from = reached.modules.get(from))
    chain.unshift(from)
  return chain.join(' -> ')
}

describe("Vitest's main process loads no more of live-evals than planning and reporting need", () => {
  const reached = reachedFrom(MAIN_PROCESS_ENTRIES)

  test('no package that only a worker needs', () => {
    const offending = WORKER_ONLY_PACKAGES.filter((name) => reached.packages.has(name)).map(
      (name) => `${name} via ${chainTo(reached, reached.packages.get(name) as string)}`,
    )
    expect(offending).toEqual([])
    // The walk itself works: the main process does load zod and the TOML reader.
    expect([...reached.packages.keys()]).toEqual(expect.arrayContaining(['zod', 'smol-toml']))
  })

  test('none of the phases, the live sessions, the assistants or the audio DSP', () => {
    const offending = [...reached.modules.keys()]
      .filter((module) => WORKER_ONLY_MODULES.some((pattern) => pattern.test(module)))
      .map((module) => chainTo(reached, module))
    expect(offending).toEqual([])
    expect(reached.modules.has('src/vitest/run-plan.ts')).toBe(true)
  })

  test('the walk finds a worker-only import when one is there', () => {
    // A phase's module reaches its driver and, through it, the openai SDK.
    const workers = reachedFrom(['src/phases/crawl/index.ts'])
    expect(workers.packages.has('openai')).toBe(true)
    expect(chainTo(workers, 'src/phases/single-turn/driver.ts')).toBe(
      'src/phases/crawl/index.ts -> src/phases/single-turn/driver.ts',
    )
  })
})
