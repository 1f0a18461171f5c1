// What planning needs of RUN (see PhaseDescription): its results configuration and test timeout. The phase
// itself (index.ts) adds the caller source, the driver and the grader.
import type { PhaseSettings, RunSettings } from '../../config/index.ts'
import { judgeTimeBudgetMs } from '../../grading/judge/time-budget.ts'
import type { MultiTurnExecution } from '../engine/execution.ts'
import type { PhaseDescription } from '../engine/phase-module.ts'
import { runConfiguration } from './configuration.ts'

function asRun(settings: PhaseSettings): RunSettings {
  if (settings.phase !== 'run') throw new Error(`expected RUN settings, got ${settings.phase}`)
  return settings
}

/** Rehearsals, connecting and closing, beyond the call's own limits. */
const RUN_ALLOWANCE_MS = 60_000

export const runDescription: PhaseDescription<MultiTurnExecution> = {
  phase: 'run',
  interaction: 'multi_turn',
  configuration: (settings, architecture) => runConfiguration(asRun(settings), architecture),
  testTimeoutMs(settings) {
    const simulation = asRun(settings).simulation
    return (
      (simulation.max_duration_seconds + simulation.work_grace_seconds + simulation.cleanup_timeout_seconds) *
        1000 +
      simulation.drain_ms +
      RUN_ALLOWANCE_MS +
      judgeTimeBudgetMs(settings)
    )
  },
}
