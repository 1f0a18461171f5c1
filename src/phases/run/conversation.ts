// The offline RUN conversation driver. The offline server's hearing oracle takes the caller's words before the
// session opens, yet a caller who waits for the assistant can only know when to speak once it heard the
// reply. Offline everything is deterministic, so the driver rehearses: it plays the plan so far on a fresh
// session and application until the caller's next line falls due, fixes that line's time, and repeats; the
// last play, with the whole plan, is the conversation that is observed and graded. A rehearsal with a prefix
// of the plan sees exactly what the final call sees up to that point (the server acts only on audio and
// words already heard), and the final call re-checks every decision, so a plan that drifted fails loudly as
// a caller_simulation error instead of being graded.
//
// Scheduled interventions (interventions/) join the same loop: each rehearsal also watches the pending ones,
// and whichever comes first, the next line or an intervention's cue, is fixed next. A barge-in then waits for
// the assistant's reply like any line; a backchannel asks for nothing, so the next line still waits for the
// reply to the line before it. Each intervention's outcome is measured on the observed call.
//
// Live, the caller is a second LiveSession (brief.ts) that decides for itself; this driver is offline only.
import type { ScenarioApplication } from '../../assistants/architectures/index.ts'
import { StageError } from '../engine/stage.ts'
import { assistantCutOff, terminationWithCutOff } from './cut-off.ts'
import type { DrainRevocation } from './drain.ts'
import { type DueIntervention, InterventionAgenda, scriptedLineEnds } from './interventions/agenda.ts'
import { type InterventionOutcome, interventionOutcomes } from './interventions/outcomes.ts'
import type { Intervention } from './interventions/schema.ts'
import { ceilToStep, triggerCueMs } from './interventions/triggers.ts'
import {
  type CallerAction,
  callerTurnStart,
  DEFAULT_TURN_TAKING,
  type PlannedUtterance,
  planIntervention,
  planUtterance,
  type ScriptedLine,
  type TurnTakingRules,
} from './offline-caller.ts'
import { OfflineCompletion } from './offline-completion.ts'
import { type CallState, type PlayedCall, playScriptedCall, type ScriptedCallSetup } from './scripted-call.ts'

export interface CompletionRules {
  /** Minimum time from the finish signal to the end of the call (§6 drain_ms). */
  drainMs: number
  /** Quiet on both sides before the call ends (§6 final_audio_quiet_ms). */
  finalQuietMs: number
  /** The call's limit, from the relay start (caller first) or the assistant's first speech (assistant first). */
  maxDurationMs: number
  /** When the caller speaks first, it starts after this lead-in. */
  callerLeadInMs: number
}

export const DEFAULT_COMPLETION: CompletionRules = {
  drainMs: 1_500,
  finalQuietMs: 600,
  maxDurationMs: 90_000,
  callerLeadInMs: 200,
}

export interface OfflineConversationOptions {
  setup: ScriptedCallSetup
  lines: readonly ScriptedLine[]
  /** The scenario's application for the observed call (the `toolState` fixture). */
  application: ScenarioApplication
  /** A fresh application for each rehearsal (never the observed one). */
  rehearsalApplication: () => ScenarioApplication
  turnTaking?: TurnTakingRules
  completion?: CompletionRules
  /** The scenario's scheduled interventions (interventions/load.ts interventionsFor); none by default. */
  interventions?: readonly Intervention[]
}

export type TerminationReason = 'response_completed' | 'duration_limit'

export interface OfflineConversation {
  call: PlayedCall
  plan: PlannedUtterance[]
  /** How the call ended; a call that would have completed with the assistant mid-utterance is `assistant_cut_off`. */
  termination_reason: TerminationReason | 'assistant_cut_off'
  /** The call ended while the assistant was still talking (cut-off.ts); its last line is marked cut in the details. */
  assistant_cut_off: boolean
  /** When the caller's finish_conversation control tool was called (end of its goodbye); null if never. */
  finish_observed_ms: number | null
  caller_actions: Partial<Record<CallerAction, number>>
  completion_policy: 'caller_finish_tool_or_verified_outcome'
  drain_revocations: DrainRevocation[]
  /** One outcome per scheduled intervention, in the schedule's order. */
  interventions: InterventionOutcome[]
}

const stepsFor = (ms: number, stepMs: number) => Math.ceil(ms / stepMs) + 1

/** The caller's next utterance: its next scripted line, or a scheduled intervention that falls due first. */
type NextUtterance = { line: ScriptedLine; startMs: number } | { due: DueIntervention; startMs: number }

/**
 * End of the plan's last utterance that asks for a reply: the caller's next line waits for the assistant's
 * voice after it. A backchannel asks for nothing, so it does not move that point.
 */
function replyAnchorMs(plan: readonly PlannedUtterance[]): number {
  return plan.findLast((utterance) => utterance.action !== 'BACKCHANNEL')?.endMs ?? 0
}

/**
 * What the caller says next after the plan so far: rehearse until the next line falls due, or an intervention
 * whose cue comes first (at the same step the intervention goes first); null when nothing falls before the limit.
 */
async function rehearseNext(
  options: OfflineConversationOptions,
  plan: readonly PlannedUtterance[],
  line: ScriptedLine,
  agenda: InterventionAgenda | null,
  rules: TurnTakingRules,
  limitMs: number,
): Promise<NextUtterance | null> {
  const stepMs = options.setup.stepMs
  // The caller never talks over itself: nothing starts before its last utterance ended. After a backchannel of
  // its own it leaves the assistant a reply's worth of quiet, as a listener does: an assistant that answers a
  // "mm-hmm" is then heard doing it, and the two utterances stay apart in the audio.
  const last = plan.at(-1)
  const freeFromMs =
    (last?.endMs ?? 0) + (last?.action === 'BACKCHANNEL' ? rules.replyQuietMs + rules.callerGapMs : 0)
  const anchorMs = replyAnchorMs(plan)
  let lineStart: number | null = null
  let decidedAtMs = 0
  let next: NextUtterance | null = null
  await playScriptedCall(
    options.setup,
    options.rehearsalApplication(),
    plan,
    (state: CallState) => {
      if (state.nowMs < freeFromMs) return false
      const due = agenda?.due(state.listener.voiced, plan, state.nowMs) ?? null
      if (due !== null && (lineStart === null || due.cueMs <= lineStart)) {
        next = { due, startMs: due.cueMs }
        return true
      }
      // The assistant started talking again during the caller's pause before its line: the caller holds back
      // and waits for it to finish, as it would on a phone.
      if (lineStart !== null && state.listener.onsetAfter(decidedAtMs) !== null) lineStart = null
      if (lineStart === null && state.nowMs > freeFromMs) {
        const decided = callerTurnStart(
          line,
          anchorMs,
          state.nowMs,
          state.listener,
          state.assistantBusy,
          rules,
        )
        // Utterances start on a step boundary, so the caller's audio and the oracle agree to the sample.
        if (decided !== null) {
          lineStart = ceilToStep(decided, stepMs)
          decidedAtMs = state.nowMs
        }
      }
      // A line decided for a moment still ahead waits for it: an intervention may fall due before then.
      if (lineStart !== null && state.nowMs >= lineStart) {
        next = { line, startMs: lineStart }
        return true
      }
      return false
    },
    stepsFor(limitMs, stepMs),
  )
  if (next !== null) return next
  // Decided, but the rehearsal reached the limit before the line's moment: the caller's loop drops it.
  return lineStart === null ? null : { line, startMs: lineStart }
}

export async function runOfflineConversation(
  options: OfflineConversationOptions,
): Promise<OfflineConversation> {
  const rules = options.turnTaking ?? DEFAULT_TURN_TAKING
  const completion = options.completion ?? DEFAULT_COMPLETION
  const assistantFirst = options.setup.assistantFirstPrompt !== null
  const interventions = options.interventions ?? []
  checkInterventionLines(interventions, options.lines.length)
  const agenda = new InterventionAgenda(interventions, options.setup.stepMs)
  // Rehearsals stop at the limit too: no plan may reach past the call's maximum duration.
  const limitMs = completion.maxDurationMs + (assistantFirst ? rules.noReplyWaitMs : 0)
  const plan: PlannedUtterance[] = []
  let lineIndex = 0
  while (lineIndex < options.lines.length) {
    const line = options.lines[lineIndex] as ScriptedLine
    // Interventions come after the opening, which the caller-first caller says after its lead-in.
    const next: NextUtterance | null =
      lineIndex === 0 && !assistantFirst
        ? { line, startMs: completion.callerLeadInMs }
        : await rehearseNext(
            options,
            plan,
            line,
            plan.length > 0 && agenda.hasPending ? agenda : null,
            rules,
            limitMs,
          )
    if (next === null || next.startMs >= limitMs) break
    if ('due' in next) {
      plan.push(planIntervention(next.due.intervention, next.startMs))
      agenda.said(next.due.intervention.id)
      continue
    }
    plan.push(planUtterance(next.line, next.startMs))
    lineIndex++
  }
  agenda.endPlan()
  let played: TerminationReason = 'duration_limit'
  const completing = new OfflineCompletion(
    { drainMs: completion.drainMs, finalQuietMs: completion.finalQuietMs },
    plan,
  )
  const call = await playScriptedCall(
    options.setup,
    options.application,
    plan,
    (state) => {
      const startMs = assistantFirst ? (state.listener.onsetAfter(0) ?? state.nowMs) : 0
      if (state.nowMs - startMs >= completion.maxDurationMs) return true
      const ready = completing.ready(state)
      if (ready) played = 'response_completed'
      return ready
    },
    stepsFor(limitMs + completion.drainMs, options.setup.stepMs),
  )
  const drain = completing.drain
  // The listener hears a step's audio at the next step: voice heard up to the last step's end is still going.
  const cutOff = assistantCutOff({
    bufferedSpeech: call.bufferedSpeechAtEnd,
    lastAssistantVoiceEndMs: call.listener.lastVoicedEndMs,
    endedAtMs: call.endedAtMs,
    withinMs: 0,
  })
  checkPlanHeld(call, plan, assistantFirst, rules, interventions, options.setup.stepMs)
  const caller_actions: Partial<Record<CallerAction, number>> = {}
  for (const utterance of plan) {
    if (utterance.startMs >= call.endedAtMs) continue
    caller_actions[utterance.action] = (caller_actions[utterance.action] ?? 0) + 1
  }
  const assistantVoiced = call.timeline
    .speechIntervals()
    .assistant.map((interval) => ({ start_ms: interval.startMs, end_ms: interval.endMs }))
  return {
    call,
    plan,
    termination_reason: terminationWithCutOff(played, cutOff),
    assistant_cut_off: cutOff,
    finish_observed_ms: drain.finishObservedMs,
    caller_actions,
    completion_policy: 'caller_finish_tool_or_verified_outcome',
    drain_revocations: [...drain.revocations],
    interventions: interventionOutcomes(interventions, plan, agenda.unsaid, assistantVoiced, call.endedAtMs),
  }
}

/**
 * A condition counted from a caller line the script does not have, or from its goodbye (nothing is said after
 * it), could never fire: the schedule does not fit this scenario's caller, which is the input's problem.
 */
function checkInterventionLines(interventions: readonly Intervention[], lineCount: number): void {
  for (const intervention of interventions) {
    const { trigger } = intervention
    const line = trigger.type === 'while_assistant_speaking' ? trigger.after_caller_line : null
    if (line !== null && line >= lineCount - 1) {
      throw new StageError(
        'input_setup',
        `Intervention "${intervention.id}": trigger.after_caller_line is ${line}, but the scripted caller has ${lineCount} lines (0 is the opening, ${lineCount - 1} the goodbye, after which nothing is said); use 0 to ${lineCount - 2}.`,
      )
    }
  }
}

/**
 * The observed call must show what the rehearsals decided: each scripted line that is not the caller-first
 * opening starts after the assistant spoke since the caller's last utterance that asked for a reply (or after
 * a silent wait), an assistant-first call opens with the assistant, and each condition-triggered intervention
 * starts exactly where its condition holds on the observed audio.
 */
function checkPlanHeld(
  call: PlayedCall,
  plan: readonly PlannedUtterance[],
  assistantFirst: boolean,
  rules: TurnTakingRules,
  interventions: readonly Intervention[],
  stepMs: number,
): void {
  plan.forEach((utterance, index) => {
    const before = plan.slice(0, index)
    if (utterance.interventionId !== undefined) {
      const { trigger } = interventions.find((candidate) => candidate.id === utterance.interventionId) ?? {}
      if (trigger === undefined || trigger.type === 'at') return
      const view = { scriptedLineEndsMs: scriptedLineEnds(before) }
      const cueMs = triggerCueMs(trigger, call.listener.voiced, view, utterance.startMs, stepMs)
      if (cueMs !== utterance.startMs) {
        throw new StageError(
          'caller_simulation',
          `The scheduled intervention "${utterance.interventionId}" at ${utterance.startMs} ms no longer meets its condition in the observed call (it holds at ${cueMs ?? 'no'} ms).`,
        )
      }
      return
    }
    if (index === 0 && !assistantFirst) return
    const anchorMs = replyAnchorMs(before)
    const onset = call.listener.onsetAfter(anchorMs)
    if (onset === null || onset > utterance.startMs) {
      if (index === 0) {
        throw new StageError(
          'caller_simulation',
          'assistant_opening: the caller spoke before the assistant greeted it.',
        )
      }
      // Waiting out a silent assistant is allowed; the reply check is only for lines that waited for a reply.
      const waited = utterance.startMs - anchorMs >= rules.noReplyWaitMs
      if (!waited) {
        throw new StageError(
          'caller_simulation',
          `The scripted caller's line "${utterance.text}" at ${utterance.startMs} ms no longer follows an assistant reply in the observed call.`,
        )
      }
    }
  })
}
