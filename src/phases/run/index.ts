// RUN: a simulated caller holds a whole conversation with the assistant under test. The caller speaks during the
// call (the scripted caller offline, a GPT-Live caller session live), so its source prepares only the opening it
// knows beforehand; the driver plays the call on one media clock and observes it; RUN's grader decides the task
// from application state, tools and procedure (reference §3.6) and records the conversation.
import type { RunSettings } from '../../config/index.ts'
import type { CallerSource } from '../engine/caller.ts'
import type { MultiTurnExecution } from '../engine/execution.ts'
import type { PhaseModule } from '../engine/phase-module.ts'
import { StageError } from '../engine/stage.ts'
import { runDescription } from './description.ts'
import { runDriver } from './driver.ts'
import { runGrader } from './grader.ts'
import type { RunObserved } from './observed.ts'

/**
 * RUN's caller is produced during the call; before it, only its opening is known (input.text). The audio is
 * empty: nothing is streamed before the call starts.
 */
export const runCallerSource: CallerSource = {
  audioSource: 'synthetic',
  async prepare(scenario) {
    if (scenario.input.text.trim() === '') {
      throw new StageError(
        'input_setup',
        `Scenario ${scenario.id}: input.text is empty; the caller has no opening.`,
      )
    }
    return { samples: new Int16Array(0), text: scenario.input.text, hearing: [], source: 'synthetic' }
  },
}

export const runPhase: PhaseModule<RunObserved, MultiTurnExecution, RunSettings> = {
  ...runDescription,
  callerSource: () => runCallerSource,
  driver: runDriver,
  grader: runGrader,
}
