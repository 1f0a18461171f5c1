// The offline RUN conversation driver. The offline server's hearing oracle takes the caller's words before the
// session opens, yet a caller who waits for the assistant can only know when to speak once it heard the
// reply. Offline everything is deterministic, so the driver rehearses: it plays the plan so far on a fresh
// session and application until the caller's next line falls due, fixes that line's time, and repeats; the
// last play, with the whole plan, is the conversation that is observed and graded. A rehearsal with a prefix
// of the plan sees exactly what the final call sees up to that point (the server acts only on audio and
// words already heard), and the final call re-checks every decision, so a plan that drifted fails loudly as
// a caller_simulation error instead of being graded.
//
// Live, the caller is a second LiveSession (brief.ts) that decides for itself; this driver is offline only.
import type { ScenarioApplication } from '../../assistants/architectures/index.ts'
import { StageError } from '../engine/stage.ts'
import { CompletionDrain, type DrainRevocation } from './drain.ts'
import {
  type CallerAction,
  callerTurnStart,
  DEFAULT_TURN_TAKING,
  type PlannedUtterance,
  planUtterance,
  type ScriptedLine,
  type TurnTakingRules,
} from './offline-caller.ts'
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
}

export type TerminationReason = 'response_completed' | 'duration_limit'

export interface OfflineConversation {
  call: PlayedCall
  plan: PlannedUtterance[]
  termination_reason: TerminationReason
  /** When the caller's finish_conversation control tool was called (end of its goodbye); null if never. */
  finish_observed_ms: number | null
  caller_actions: Partial<Record<CallerAction, number>>
  completion_policy: 'caller_finish_tool_or_verified_outcome'
  drain_revocations: DrainRevocation[]
}

const stepsFor = (ms: number, stepMs: number) => Math.ceil(ms / stepMs) + 1

/** Where the next line falls after the plan so far: rehearse until the caller decides; null past the limit. */
async function rehearseNextStart(
  options: OfflineConversationOptions,
  plan: readonly PlannedUtterance[],
  line: ScriptedLine,
  rules: TurnTakingRules,
  limitMs: number,
): Promise<number | null> {
  const previousEnd = plan.at(-1)?.endMs ?? 0
  let decided: number | null = null
  await playScriptedCall(
    options.setup,
    options.rehearsalApplication(),
    plan,
    (state: CallState) => {
      if (state.nowMs <= previousEnd) return false
      decided = callerTurnStart(line, previousEnd, state.nowMs, state.listener, state.assistantBusy, rules)
      return decided !== null
    },
    stepsFor(limitMs, options.setup.stepMs),
  )
  // No moment before the limit: the line would fall after the call ended, so it is never said.
  if (decided === null) return null
  const stepMs = options.setup.stepMs
  // Utterances start on a step boundary, so the caller's audio and the oracle agree to the sample.
  return Math.ceil((decided as number) / stepMs) * stepMs
}

export async function runOfflineConversation(
  options: OfflineConversationOptions,
): Promise<OfflineConversation> {
  const rules = options.turnTaking ?? DEFAULT_TURN_TAKING
  const completion = options.completion ?? DEFAULT_COMPLETION
  const assistantFirst = options.setup.assistantFirstPrompt !== null
  // Rehearsals stop at the limit too: no plan may reach past the call's maximum duration.
  const limitMs = completion.maxDurationMs + (assistantFirst ? rules.noReplyWaitMs : 0)
  const plan: PlannedUtterance[] = []
  for (const [index, line] of options.lines.entries()) {
    const startMs =
      index === 0 && !assistantFirst
        ? completion.callerLeadInMs
        : await rehearseNextStart(options, plan, line, rules, limitMs)
    if (startMs === null || startMs >= limitMs) break
    plan.push(planUtterance(line, startMs))
  }
  const stop = plan.find((utterance) => utterance.action === 'STOP')
  const finishMs = stop === undefined ? null : stop.endMs
  let terminated: TerminationReason = 'duration_limit'
  const drain = new CompletionDrain({ drainMs: completion.drainMs, finalQuietMs: completion.finalQuietMs })
  const call = await playScriptedCall(
    options.setup,
    options.application,
    plan,
    (state) => {
      const startMs = assistantFirst ? (state.listener.onsetAfter(0) ?? state.nowMs) : 0
      if (state.nowMs - startMs >= completion.maxDurationMs) return true
      // The finish_conversation control tool is called once the goodbye has been said.
      if (finishMs !== null && state.nowMs >= finishMs) drain.observeSignal('caller_finish_tool', finishMs)
      for (const utterance of plan) if (utterance.startMs <= state.nowMs) drain.callerSpoke(utterance.startMs)
      const ready = drain.ready({
        nowMs: state.nowMs,
        lastVoiceMs: state.listener.lastVoicedEndMs,
        assistantBusy: state.assistantBusy,
        // Offline the caller's audio is generated in step with the clock and transcripts come from the
        // oracle, so nothing is ever buffered and the evidence is always current.
        bufferedSpeech: false,
        evidenceCurrent: true,
      })
      if (ready) terminated = 'response_completed'
      return ready
    },
    stepsFor(limitMs + completion.drainMs, options.setup.stepMs),
  )
  checkPlanHeld(call, plan, assistantFirst, rules)
  const caller_actions: Partial<Record<CallerAction, number>> = {}
  for (const utterance of plan) caller_actions[utterance.action] = (caller_actions[utterance.action] ?? 0) + 1
  return {
    call,
    plan,
    termination_reason: terminated,
    finish_observed_ms: drain.finishObservedMs,
    caller_actions,
    completion_policy: 'caller_finish_tool_or_verified_outcome',
    drain_revocations: [...drain.revocations],
  }
}

/**
 * The observed call must show what the rehearsals decided: each non-interrupting line starts after the
 * assistant spoke since the caller's previous line, and an assistant-first call opens with the assistant.
 */
function checkPlanHeld(
  call: PlayedCall,
  plan: readonly PlannedUtterance[],
  assistantFirst: boolean,
  rules: TurnTakingRules,
): void {
  plan.forEach((utterance, index) => {
    const previousEnd = index === 0 ? 0 : (plan[index - 1] as PlannedUtterance).endMs
    if (index === 0 && !assistantFirst) return
    const onset = call.listener.onsetAfter(previousEnd)
    if (onset === null || onset > utterance.startMs) {
      if (index === 0) {
        throw new StageError(
          'caller_simulation',
          'assistant_opening: the caller spoke before the assistant greeted it.',
        )
      }
      // Waiting out a silent assistant is allowed; the reply check is only for lines that waited for a reply.
      const waited = utterance.startMs - previousEnd >= rules.noReplyWaitMs
      if (!waited) {
        throw new StageError(
          'caller_simulation',
          `The scripted caller's line "${utterance.text}" at ${utterance.startMs} ms no longer follows an assistant reply in the observed call.`,
        )
      }
    }
  })
}
