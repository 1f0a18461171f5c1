// What differs from one trial of an explain to the next. Offline execution is deterministic, so k identical
// re-runs would be one observation counted k times; instead each trial is its own reproducible draw, derived from
// the explain seed and the trial number only:
//   - when the caller starts speaking: a lead-in offset of 0-300 ms, in whole 20 ms frames (single-turn phases;
//     RUN's scripted caller keeps its own timing);
//   - the acoustic preset's noise (RUN's simulation.seed; a WALK recording is a fixed file);
//   - the fault profile's draws (its seed), when the run had one.
// Trial 1 is always the run's own draw (no offset, the recorded seeds), so the unchanged re-run can reproduce the
// failure exactly; trials 2..k vary. Every arm of a scenario uses the same draw for the same trial, so arms are
// compared trial for trial, and the same seed gives the same draws, hence the same explanation.

import { effectSeed, SeededRandom } from '../audio/effects/random.ts'
import { concatPcm16, silence } from '../audio/pcm.ts'
import type { CallerSource } from '../phases/engine/caller.ts'
import type { Rerun } from './schema.ts'

export type TrialDraws = Rerun['draws']

/** Lead-in offsets are whole frames so every trial streams the same frame grid. */
const OFFSET_STEP_MS = 20
const OFFSET_STEPS = 16

/** Salts that keep the three draws of a trial apart (any distinct constants would do). */
const SALT = { offset: 0x0ff5e7, preset: 0x9e5e7, faults: 0xfa017 }

function draw(seed: number, trial: number, salt: number): SeededRandom {
  return new SeededRandom(effectSeed(Math.imul(seed, 0x01000193) + trial, salt))
}

export interface RecordedSeeds {
  /** The run's acoustic preset seed (RUN's simulation.seed); null where the phase has none. */
  preset: number | null
  /** The run's fault profile seed; null when it had no profile. */
  faults: number | null
}

/** Trial `trial` (1-based) of an explain with `seed`, around the run's recorded seeds. */
export function trialDraws(
  seed: number,
  trial: number,
  recorded: RecordedSeeds,
  offsets: boolean,
): TrialDraws {
  if (trial === 1) return { caller_offset_ms: 0, preset_seed: recorded.preset, fault_seed: recorded.faults }
  const seedOf = (salt: number) => draw(seed, trial, salt).nextIntInclusive(0, 2_147_483_647)
  return {
    caller_offset_ms: offsets
      ? OFFSET_STEP_MS * draw(seed, trial, SALT.offset).nextIntInclusive(0, OFFSET_STEPS - 1)
      : 0,
    preset_seed: recorded.preset === null ? null : seedOf(SALT.preset),
    fault_seed: recorded.faults === null ? null : seedOf(SALT.faults),
  }
}

/**
 * The caller source with the request starting `offsetMs` later: that much more silence before it, and its
 * hearing and speech intervals moved by as much (they are times in the streamed audio).
 */
export function offsetCallerSource(source: CallerSource, offsetMs: number): CallerSource {
  if (offsetMs === 0) return source
  return {
    audioSource: source.audioSource,
    // The same recording, played later: a row that fails before it plays still names it (meta.recording).
    ...(source.recordingOf === undefined ? {} : { recordingOf: source.recordingOf.bind(source) }),
    async prepare(scenario, options) {
      const audio = await source.prepare(scenario, options)
      const later = <T extends { startMs: number; endMs: number }>(span: T): T => ({
        ...span,
        startMs: span.startMs + offsetMs,
        endMs: span.endMs + offsetMs,
      })
      return {
        ...audio,
        samples: concatPcm16([silence(offsetMs), audio.samples]),
        hearing: audio.hearing.map(later),
        ...(audio.callerSpeech === undefined ? {} : { callerSpeech: audio.callerSpeech.map(later) }),
      }
    },
  }
}
