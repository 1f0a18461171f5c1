// The Vitest project of one live-evals phase, for vitest.config.ts:
//   projects: [liveEvalsProject({ phase: 'crawl', config: 'specs/crawl/config.toml' })]
// It wires the custom runner, the matchers, the global setup (run plan) and the canonical reporter, declares the
// tags scenarios carry (strictTags would otherwise reject the whole file), and takes concurrency and timeouts
// from the phase settings as resolved when Vitest starts.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProjectInlineConfiguration } from 'vitest/config'
import type { Phase } from '../config/index.ts'
import { parseDataset, scenarioType, selectScenarios } from '../scenarios/index.ts'
import { phaseRunDescription } from './phase-runs.ts'
import type { LiveEvalsProjectOptions } from './provided.ts'
import { ASSISTANT_ARCHITECTURES, loadSuiteSettings } from './settings.ts'
import { architectureTag, phaseTag, scenarioTypeTag } from './tags.ts'

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url))

export const CANONICAL_REPORTER = resolve(here('../../reporters/canonical.ts'))

export interface LiveEvalsProjectInput {
  phase: Phase
  /** The phase's config.toml, relative to the working directory Vitest starts in (or absolute). */
  config: string
  /** Spec files; defaults to `specs/<phase>/**\/*.spec.ts`. */
  include?: string[]
  /** Project name; defaults to the phase. */
  name?: string
}

interface StartupFacts {
  scenarioTypes: string[]
  concurrency: number
  testTimeoutMs: number
}

// Read once when the config loads. A problem here (bad dataset, bad setting) is not reported here: the global
// setup reports it in full, and only when this project actually runs, so `vitest --project unit` never trips on it.
function startupFacts(phase: Phase, configFile: string): StartupFacts {
  const fallback = { scenarioTypes: [], concurrency: 1, testTimeoutMs: 120_000 }
  try {
    const settings = loadSuiteSettings(phase, configFile)
    const dataset = parseDataset(readFileSync(settings.dataset.path, 'utf8'), settings.dataset.path)
    const scenarios = selectScenarios(dataset.scenarios, phase)
    return {
      scenarioTypes: [...new Set(scenarios.map((scenario) => scenarioType(scenario)))],
      concurrency: settings.execution.concurrency,
      testTimeoutMs: phaseRunDescription(phase).testTimeoutMs(settings),
    }
  } catch {
    return fallback
  }
}

export function liveEvalsProject(input: LiveEvalsProjectInput): TestProjectInlineConfiguration {
  const configFile = resolve(input.config)
  const facts = startupFacts(input.phase, configFile)
  const tags = [
    { name: phaseTag(input.phase), description: `live-evals ${input.phase.toUpperCase()} scenarios` },
    ...ASSISTANT_ARCHITECTURES.map((architecture) => ({
      name: architectureTag(architecture),
      description: `evaluated with the ${architecture} assistant architecture`,
    })),
    ...facts.scenarioTypes.map((type) => ({
      name: scenarioTypeTag(type),
      description: `scenario type ${type}`,
    })),
  ]
  const options: LiveEvalsProjectOptions = {
    phase: input.phase,
    configFile,
    declaredTags: tags.map((tag) => tag.name),
  }
  return {
    plugins: [canonicalReporterPlugin()],
    test: {
      name: input.name ?? input.phase,
      include: input.include ?? [`specs/${input.phase}/**/*.spec.ts`],
      environment: 'node',
      runner: here('./runner.ts'),
      setupFiles: [here('./setup.ts')],
      globalSetup: [here('./global-setup.ts')],
      provide: { liveEvalsProject: options },
      tags,
      maxConcurrency: facts.concurrency,
      sequence: { concurrent: facts.concurrency > 1 },
      testTimeout: facts.testTimeoutMs,
      hookTimeout: 60_000,
    },
  }
}

/**
 * Adds the canonical reporter whenever this project runs, also when `--reporter` on the command line replaced the
 * configured reporters: results.json is the phase's product, not a display choice.
 */
function canonicalReporterPlugin() {
  return {
    name: 'live-evals:canonical-reporter',
    configureVitest({ vitest }: { vitest: { config: { reporters: unknown[] } } }) {
      const reporters = vitest.config.reporters
      const present = reporters.some((entry) => {
        const name = Array.isArray(entry) ? entry[0] : entry
        return typeof name === 'string' && resolve(name) === CANONICAL_REPORTER
      })
      if (!present) reporters.push([CANONICAL_REPORTER, {}])
    },
  }
}
