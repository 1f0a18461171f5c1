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
import type { CompletionSignal, DrainRevocation } from './drain.ts'
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
  /** The completion signal whose drain ended the call; null when it did not end on one (the duration limit). */
  completion_signal: CompletionSignal | null
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
 * Times one caller line from the states of a call playing the plan so far: the caller waits until its last
 * utterance ended, decides when to speak from what it heard, holds back if the assistant starts again before
 * then, and fixes the line once its moment comes (or an intervention whose cue comes first; at the same step
 * the intervention goes first).
 */
class LineTimer {
  readonly #line: ScriptedLine
  readonly #plan: readonly PlannedUtterance[]
  readonly #agenda: InterventionAgenda | null
  readonly #rules: TurnTakingRules
  readonly #stepMs: number
  // The caller never talks over itself: nothing starts before its last utterance ended. After a backchannel of
  // its own it leaves the assistant a reply's worth of quiet, as a listener does: an assistant that answers a
  // "mm-hmm" is then heard doing it, and the two utterances stay apart in the audio.
  readonly #freeFromMs: number
  readonly #anchorMs: number
  #lineStart: number | null = null
  #decidedAtMs = 0
  /** Set once the watch fixed the next utterance. */
  fixed: NextUtterance | null = null

  constructor(
    line: ScriptedLine,
    plan: readonly PlannedUtterance[],
    agenda: InterventionAgenda | null,
    rules: TurnTakingRules,
    stepMs: number,
  ) {
    this.#line = line
    this.#plan = plan
    this.#agenda = agenda
    this.#rules = rules
    this.#stepMs = stepMs
    const last = plan.at(-1)
    this.#freeFromMs =
      (last?.endMs ?? 0) + (last?.action === 'BACKCHANNEL' ? rules.replyQuietMs + rules.callerGapMs : 0)
    this.#anchorMs = replyAnchorMs(plan)
  }

  /** The line's moment as decided so far (a step boundary), null while undecided. */
  get lineStart(): number | null {
    return this.#lineStart
  }

  /** The moment of the assistant's voice the caller heard since it decided (that voice cancels the decision). */
  get decidedAtMs(): number {
    return this.#decidedAtMs
  }

  /** Looks at the call after one step; true once the next utterance is fixed (then `fixed` says which). */
  observe(state: CallState): boolean {
    if (state.nowMs < this.#freeFromMs) return false
    const due = this.#agenda?.due(state.listener.voiced, this.#plan, state.nowMs) ?? null
    if (due !== null && (this.#lineStart === null || due.cueMs <= this.#lineStart)) {
      this.fixed = { due, startMs: due.cueMs }
      return true
    }
    // The assistant started talking again during the caller's pause before its line: the caller holds back
    // and waits for it to finish, as it would on a phone.
    if (this.#lineStart !== null && state.listener.onsetAfter(this.#decidedAtMs) !== null)
      this.#lineStart = null
    if (this.#lineStart === null && state.nowMs > this.#freeFromMs) {
      const decided = callerTurnStart(
        this.#line,
        this.#anchorMs,
        state.nowMs,
        state.listener,
        state.assistantBusy,
        this.#rules,
      )
      // Utterances start on a step boundary, so the caller's audio and the oracle agree to the sample.
      if (decided !== null) {
        this.#lineStart = ceilToStep(decided, this.#stepMs)
        this.#decidedAtMs = state.nowMs
      }
    }
    // A line decided for a moment still ahead waits for it: an intervention may fall due before then.
    if (this.#lineStart !== null && state.nowMs >= this.#lineStart) {
      this.fixed = { line: this.#line, startMs: this.#lineStart }
      return true
    }
    return false
  }

  /** What the call's step limit leaves: a line decided but not reached (the caller's loop drops it), or null. */
  atLimit(): NextUtterance | null {
    return this.fixed ?? (this.#lineStart === null ? null : { line: this.#line, startMs: this.#lineStart })
  }

  /**
   * With no intervention to watch, whether the next step will fix the line: it is decided for the next step's
   * moment and what the caller hears at the start of that step (`upcoming`) does not cancel the decision.
   */
  fixesNextStep(state: CallState): boolean {
    if (this.#agenda !== null || this.fixed !== null || this.#lineStart !== state.nowMs + this.#stepMs) {
      return false
    }
    return !state.listener.wouldStartVoiceAt(state.nowMs, state.upcoming())
  }
}

/**
 * What the caller says next after the plan so far: rehearse until the next line falls due, or an intervention
 * whose cue comes first; null when nothing falls before the limit.
 */
async function rehearseNext(
  options: OfflineConversationOptions,
  plan: readonly PlannedUtterance[],
  line: ScriptedLine,
  agenda: InterventionAgenda | null,
  rules: TurnTakingRules,
  limitMs: number,
): Promise<NextUtterance | null> {
  const timer = new LineTimer(line, plan, agenda, rules, options.setup.stepMs)
  await playScriptedCall(
    options.setup,
    options.rehearsalApplication(),
    plan,
    (state) => timer.observe(state),
    stepsFor(limitMs, options.setup.stepMs),
  )
  return timer.atLimit()
}

/**
 * The one-pass rehearsal (no interventions): a single call times line after line. When a line will be fixed
 * at the next step, it is added to the running call before the server's clock reaches its start, so the call
 * goes on exactly as a fresh rehearsal with that line planned from the start would (the server acts only on
 * audio and words already heard, and an utterance registered before its start is heard like a planned one):
 * the rehearsals cost one call up to the last line instead of one call up to each line. Lines it cannot time
 * that way (decided for the very step they fall on: a barge-in, a caller giving up on a silent assistant) are
 * left to rehearseNext. Returns how many lines it added to `plan`, and whether the step limit ended it.
 */
async function rehearseInOnePass(
  options: OfflineConversationOptions,
  plan: PlannedUtterance[],
  firstLine: number,
  rules: TurnTakingRules,
  limitMs: number,
): Promise<{ next: number; limitReached: NextUtterance | null | undefined }> {
  const { stepMs } = options.setup
  let index = firstLine
  let timer = new LineTimer(options.lines[index] as ScriptedLine, [...plan], null, rules, stepMs)
  let announced: PlannedUtterance | null = null
  let handOver = false
  const played = await playScriptedCall(
    options.setup,
    options.rehearsalApplication(),
    plan,
    (state) => {
      if (timer.observe(state)) {
        const fixed = timer.fixed as { line: ScriptedLine; startMs: number }
        if (announced === null || announced.startMs !== fixed.startMs) {
          // Fixed without having been added ahead (decided for this very step): rehearseNext times it.
          handOver = true
          return true
        }
        plan.push(announced)
        announced = null
        index++
        if (index >= options.lines.length) return true
        timer = new LineTimer(options.lines[index] as ScriptedLine, [...plan], null, rules, stepMs)
        return false
      }
      if (announced !== null) {
        handOver = true // added ahead, then not fixed: this call no longer rehearses the plan
        return true
      }
      if (state.extendPlan !== null && timer.fixesNextStep(state)) {
        const startMs = timer.lineStart as number
        if (startMs >= limitMs) return false // the caller's loop drops it: nothing to add
        announced = planUtterance(options.lines[index] as ScriptedLine, startMs)
        state.extendPlan(announced)
      }
      return false
    },
    stepsFor(limitMs, stepMs),
  )
  const limitReached =
    played.stoppedBy === 'step_limit' && !handOver && index < options.lines.length && announced === null
      ? timer.atLimit()
      : undefined
  return { next: index, limitReached }
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
  if (!assistantFirst && options.lines.length > 0) {
    plan.push(planUtterance(options.lines[0] as ScriptedLine, completion.callerLeadInMs))
    lineIndex = 1
  }
  if (interventions.length === 0 && options.setup.server.hear !== undefined) {
    while (lineIndex < options.lines.length) {
      const pass = await rehearseInOnePass(options, plan, lineIndex, rules, limitMs)
      lineIndex = pass.next
      if (lineIndex >= options.lines.length) break
      // The step limit ended the pass (what a rehearsal of this line alone finds), or the pass could not add
      // the line ahead: time it alone, then go on in one pass again.
      const next =
        pass.limitReached !== undefined
          ? pass.limitReached
          : await rehearseNext(options, plan, options.lines[lineIndex] as ScriptedLine, null, rules, limitMs)
      if (next === null || next.startMs >= limitMs || 'due' in next) {
        lineIndex = options.lines.length
        break
      }
      plan.push(planUtterance(next.line, next.startMs))
      lineIndex++
    }
  }
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
    completion_signal: drain.drainedBy,
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
