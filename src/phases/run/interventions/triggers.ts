// When a scheduled intervention's trigger fires, decided only from what the caller has heard of the assistant
// (the voiced stretches of the relayed audio, up to now) and the caller's own plan so far. Pure functions, so
// the conversation driver uses the same rule to decide a cue in a rehearsal and to re-check it on the
// observed call.
import type { Interval } from '../../../metrics/intervals.ts'
import type { InterventionTrigger } from './schema.ts'

/** Utterances start on a media-clock step, so the caller's audio and the hearing oracle agree to the sample. */
export function ceilToStep(ms: number, stepMs: number): number {
  return Math.ceil(ms / stepMs) * stepMs
}

/**
 * The cue of a `while_assistant_speaking` trigger as known at `nowMs`: the first step at or after the moment
 * the assistant's `occurrence`-th uninterrupted stretch of voice that starts at or after `anchorMs` had lasted
 * `ms`; null while that has not happened (yet). Stretches are what the caller heard up to `nowMs`.
 */
export function whileSpeakingCueMs(
  trigger: Extract<InterventionTrigger, { type: 'while_assistant_speaking' }>,
  heard: readonly Interval[],
  anchorMs: number,
  nowMs: number,
  stepMs: number,
): number | null {
  let reached = 0
  for (const stretch of heard) {
    if (stretch.start_ms >= nowMs) break
    if (stretch.start_ms < anchorMs) continue
    if (Math.min(stretch.end_ms, nowMs) - stretch.start_ms < trigger.ms) continue
    reached++
    if (reached === trigger.occurrence) return ceilToStep(stretch.start_ms + trigger.ms, stepMs)
  }
  return null
}

/** Where the caller's plan stands when a trigger is looked at. */
export interface CallerPlanView {
  /** End of each scripted line said so far (the opening is line 0); interventions are not lines. */
  scriptedLineEndsMs: readonly number[]
}

/** A trigger's cue as known at `nowMs`, or null when it is not known yet (a condition that has not held). */
export function triggerCueMs(
  trigger: InterventionTrigger,
  heard: readonly Interval[],
  plan: CallerPlanView,
  nowMs: number,
  stepMs: number,
): number | null {
  if (trigger.type === 'at') return ceilToStep(trigger.at_ms, stepMs)
  const line = trigger.after_caller_line
  const anchorMs = line === null ? 0 : plan.scriptedLineEndsMs[line]
  // The line it counts from has not been said yet: the condition is not armed.
  if (anchorMs === undefined) return null
  return whileSpeakingCueMs(trigger, heard, anchorMs, nowMs, stepMs)
}
