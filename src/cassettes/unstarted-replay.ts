// Under replay, an execution whose caller audio could not be prepared never reaches its replay (CRAWL's caller
// speech is read from the cassettes folder before the scenario's cassette scope opens). It is still a replay row
// and lands in exactly one bucket of the replay tally, as the replay would have classified it: `missing` when its
// cassette is absent, `refused` when the cassette is unreadable or recorded for another scenario version or model,
// `diverged` when the cassette would play but holds no caller speech for what the scenario says now.

import type { PhaseSettings } from '../config/index.ts'
import { firstCauseOf } from '../errors/causes.ts'
import type { ScenarioExecution } from '../phases/engine/execution.ts'
import type { CassetteRowExtension } from '../reporting/extensions/cassette.ts'
import { DivergenceLog } from './divergences.ts'
import { CallerSpeechNotRecordedError, CassetteError, CassetteRefusedError } from './errors.ts'
import { readCassette } from './files.ts'
import { type CassetteExecutionContext, cassetteIdFor } from './recording.ts'
import { refuseForeignCassette, replayCassetteBlock } from './replaying.ts'

export interface UnstartedReplay {
  /** The row's failure: always at stage `replay`, the message saying what the cassette lacks and what to do. */
  failure: { stage: 'replay'; message: string }
  /** The row's `cassette` block: the tally bucket. */
  cassette: CassetteRowExtension
  /** What the test fails with (the same message). */
  error: Error
}

/**
 * Under replay, what the execution that failed with `error` before its replay began is in the replay's terms; null
 * when this is no replay, or the cassette would play and the failure is not about it (then it stays the stage's).
 */
export async function unstartedReplayOf(
  error: unknown,
  context: Pick<CassetteExecutionContext<ScenarioExecution>, 'scenario' | 'env'>,
): Promise<UnstartedReplay | null> {
  const settings: PhaseSettings = context.env.settings
  if (!settings.replay.enabled) return null
  const id = cassetteIdFor(context)
  const speech = firstCauseOf(error, CallerSpeechNotRecordedError)
  const block = (fields: Partial<CassetteRowExtension>) =>
    replayCassetteBlock(id, settings.replay.match, { divergence_count: null, ...fields })
  try {
    refuseForeignCassette(
      await readCassette(settings.execution.cassettes_dir ?? 'cassettes', id),
      context.scenario,
      settings,
    )
  } catch (refusal) {
    if (!(refusal instanceof CassetteRefusedError)) throw refusal
    // The cassette is why: a scenario never recorded has no speech either, and the refusal says what to record.
    const message =
      refusal.reason === 'scenario' && speech !== null
        ? `${refusal.message} ${speech.message}`
        : refusal.message
    return {
      failure: { stage: 'replay', message },
      cassette: block({ outcome: refusal.reason === 'missing' ? 'missing' : 'refused' }),
      error: new CassetteRefusedError(id, refusal.reason, message),
    }
  }
  if (speech === null) return null
  // The cassette plays (a re-grade accepts a changed scenario) but not what the caller says now: a divergence of
  // the caller's speech before its first frame, classified and worded as every other divergence is.
  const divergences = new DivergenceLog()
  const first = divergences.add(
    'caller',
    0,
    'speech',
    { path: 'caller.speech', recorded: undefined, now: speech.text },
    speech.detail,
  )
  const message = `Replay of cassette ${id} diverged: ${first.text}`
  return {
    failure: { stage: 'replay', message },
    cassette: block({
      outcome: 'diverged',
      divergence_count: divergences.count,
      first_divergence: first,
      divergences: divergences.listed,
    }),
    error: new CassetteError(id, message),
  }
}
