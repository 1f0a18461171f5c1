// The project options that follow from a phase's execution settings: how many scenarios run at once, the
// per-scenario timeout and the real-time heap. The plugin sets them when Vitest starts, and the global setup
// again at each watch rerun (a rerun re-reads config.toml): Vitest serialises project.config afresh for each run
// (TestProject.serializedConfig), so what a rerun sets before its files run is what its workers get.
// The plugin imports it lazily, past the config's bundle (see live-evals-plugin.ts): it holds the phases'
// descriptions, which only a configured phase project needs.
import type { TestProject } from 'vitest/node'
import type { PhaseSettings } from '../../config/index.ts'
import { modelConcurrency, modelsToEvaluate } from '../../config/live-models.ts'
import { phaseDescription } from '../../phases/descriptions.ts'
import { sizeRealTimeHeap } from './real-time-heap.ts'
import { runClockOf } from './run-line.ts'

/**
 * Concurrency and the per-scenario timeout, from the settings. A file runs every model's limit at once (each
 * model's own limiter, src/vitest/model-limiters.ts, keeps it to its share); one model runs its limit.
 */
export function applyExecutionSettings(config: TestProject['config'], settings: PhaseSettings): void {
  const concurrency = modelsToEvaluate(settings).reduce(
    (sum, model) => sum + modelConcurrency(settings, model),
    0,
  )
  config.maxConcurrency = concurrency
  config.sequence.concurrent = concurrency > 1
  config.testTimeout = phaseDescription(settings.phase).testTimeoutMs(settings)
  sizeRealTimeHeap(config, runClockOf(settings))
}
