// The offline scripted caller (reference §6 "Offline RUN fixture"). Offline, the caller needs no GPT-Live session:
// it says its opening and then each agenda item's response hint (or, without one, a line of its own from
// caller-lines.ts), in order, in the synthetic voice, and the assistant's offline session hears those words
// through the hearing oracle. It listens to the assistant's
// relayed voice and speaks only once the assistant has finished (or, for an `interrupt` item, shortly after
// the assistant starts), and it ends the call with its `finish_conversation` control tool after its goodbye.
//
// The live caller (a second LiveSession with the brief of brief.ts) replaces this module; the driver only needs
// the same two things from either: what to say next, and when it may say it.
import { SAMPLE_RATE_HZ } from '../../audio/pcm.ts'
import { syntheticSpeech, syntheticSpeechDurationMs } from '../../audio/synthetic-voice.ts'
import type { CallerAgendaItem, SimulationParameters } from '../../scenarios/simulation.ts'
import type { HeardUtterance } from '../engine/caller.ts'
import { derivedCallerLine } from './caller-lines.ts'
import type { Intervention } from './interventions/schema.ts'

/** The caller actions of §6, as the row's `caller_actions` names them. */
export type CallerAction = 'OPENING' | 'SPEAK' | 'BACKCHANNEL' | 'INTERRUPT' | 'STOP'

export interface ScriptedLine {
  text: string
  action: CallerAction
}

export interface PlannedUtterance extends HeardUtterance {
  action: CallerAction
  /** Set when this is a scheduled intervention (interventions/), not one of the scripted lines. */
  interventionId?: string
}

/** What the scripted caller says when its agenda has no goodbye of its own. */
export const DEFAULT_GOODBYE = 'Thanks, goodbye.'

/**
 * The scripted caller's lines: the opening, each agenda item's hint, and a goodbye. An item without a hint gets a
 * line of the caller's own (caller-lines.ts), never its commitment or trigger: those are directions, not words.
 */
export function scriptedCallerLines(parameters: SimulationParameters, openingText: string): ScriptedLine[] {
  const lines: ScriptedLine[] = [{ text: openingText, action: 'OPENING' }]
  const said = () => lines.map((line) => line.text)
  let goodbye: CallerAgendaItem | null = null
  for (const item of parameters.agenda) {
    if (item.action === 'wait') continue
    if (item.action === 'finish') {
      goodbye = item
      continue
    }
    const action: CallerAction =
      item.action === 'interrupt' ? 'INTERRUPT' : item.action === 'backchannel' ? 'BACKCHANNEL' : 'SPEAK'
    lines.push({ text: item.response_hint.trim() || derivedCallerLine(item, parameters, said()), action })
  }
  const closing =
    goodbye === null
      ? DEFAULT_GOODBYE
      : goodbye.response_hint.trim() || derivedCallerLine(goodbye, parameters, said())
  lines.push({ text: closing, action: 'STOP' })
  return lines
}

/** A planned utterance at `startMs`, as long as the synthetic voice takes to say it. */
export function planUtterance(line: ScriptedLine, startMs: number): PlannedUtterance {
  return {
    text: line.text,
    action: line.action,
    startMs,
    endMs: startMs + syntheticSpeechDurationMs(line.text),
  }
}

/** A scheduled intervention said at `startMs`: a barge-in interrupts, a backchannel only acknowledges. */
export function planIntervention(
  intervention: Pick<Intervention, 'id' | 'kind' | 'text'>,
  startMs: number,
): PlannedUtterance {
  const action: CallerAction = intervention.kind === 'barge_in' ? 'INTERRUPT' : 'BACKCHANNEL'
  return { ...planUtterance({ text: intervention.text, action }, startMs), interventionId: intervention.id }
}

/**
 * The caller's voice on the media clock: each planned utterance's synthetic speech from its start, silence
 * elsewhere. `next` is called once per step with the step's position, so the audio lands exactly where the
 * hearing oracle says the words are.
 */
export class ScriptedCallerVoice {
  readonly #plan: readonly PlannedUtterance[]
  readonly #speech = new Map<number, Int16Array>()
  #positionSamples = 0

  constructor(plan: readonly PlannedUtterance[]) {
    this.#plan = plan
  }

  next(samples: number): Int16Array {
    const chunk = new Int16Array(samples)
    const from = this.#positionSamples
    const to = from + samples
    this.#plan.forEach((utterance, index) => {
      const start = Math.round((utterance.startMs * SAMPLE_RATE_HZ) / 1000)
      let speech = this.#speech.get(index)
      if (speech === undefined) {
        speech = syntheticSpeech(utterance.text)
        this.#speech.set(index, speech)
      }
      const end = start + speech.length
      if (end <= from || start >= to) return
      const offset = Math.max(from, start)
      chunk.set(speech.subarray(offset - start, Math.min(to, end) - start), offset - from)
    })
    this.#positionSamples = to
    return chunk
  }
}

/** §4.2's speech threshold: a relayed chunk with an RMS at or above it is voiced. */
export const VOICED_RMS = 220

function rms(samples: Int16Array): number {
  // An indexed loop: for-of over the typed array took five times as long (the caller hears every relayed step),
  // 2% of `npx node --cpu-prof bench/run-offline.ts`.
  let sum = 0
  for (let index = 0; index < samples.length; index++) {
    const sample = samples[index] as number
    sum += sample * sample
  }
  return samples.length === 0 ? 0 : Math.sqrt(sum / samples.length)
}

/**
 * What the caller hears of the assistant: voiced chunks of the relayed audio, on the media clock. This is the
 * caller's only knowledge of the assistant (it never reads the assistant's events).
 */
export class AssistantListener {
  readonly #voiced: { start_ms: number; end_ms: number }[] = []

  /** The relayed chunk heard from `atMs`. */
  hear(atMs: number, samples: Int16Array): void {
    if (rms(samples) < VOICED_RMS) return
    const endMs = atMs + (samples.length * 1000) / SAMPLE_RATE_HZ
    const last = this.#voiced.at(-1)
    if (last !== undefined && last.end_ms >= atMs) last.end_ms = endMs
    else this.#voiced.push({ start_ms: atMs, end_ms: endMs })
  }

  /** Whether hearing `samples` from `atMs` would start a new voiced stretch there (hear() without hearing). */
  wouldStartVoiceAt(atMs: number, samples: Int16Array): boolean {
    if (rms(samples) < VOICED_RMS) return false
    const last = this.#voiced.at(-1)
    return last === undefined || last.end_ms < atMs
  }

  /** First voiced onset at or after `ms`; null when none was heard yet. */
  onsetAfter(ms: number): number | null {
    return this.#voiced.find((interval) => interval.start_ms >= ms)?.start_ms ?? null
  }

  /** End of the last voiced audio heard; null before any. */
  get lastVoicedEndMs(): number | null {
    return this.#voiced.at(-1)?.end_ms ?? null
  }

  get voiced(): readonly { start_ms: number; end_ms: number }[] {
    return this.#voiced
  }
}

export interface TurnTakingRules {
  /** Quiet after the assistant's last voice before the caller takes it as finished. */
  replyQuietMs: number
  /** Pause the caller leaves after the assistant finished. */
  callerGapMs: number
  /** How long the assistant must have been talking (without a pause) before an interrupting caller barges in. */
  bargeInAfterMs: number
  /** How long the caller waits for any reply before it speaks anyway. */
  noReplyWaitMs: number
}

export const DEFAULT_TURN_TAKING: TurnTakingRules = {
  replyQuietMs: 800,
  callerGapMs: 400,
  bargeInAfterMs: 1_000,
  noReplyWaitMs: 6_000,
}

/**
 * When the caller says `line`, given what it heard since its previous utterance ended at `afterMs`; null while
 * it should keep listening. `assistantBusy` is whether the assistant is still working on something (a pending
 * delegation), which a caller on a phone would notice as a "let me check" pause.
 */
export function callerTurnStart(
  line: ScriptedLine,
  afterMs: number,
  nowMs: number,
  listener: AssistantListener,
  assistantBusy: boolean,
  rules: TurnTakingRules = DEFAULT_TURN_TAKING,
): number | null {
  const onset = listener.onsetAfter(afterMs)
  if (onset === null) return nowMs >= afterMs + rules.noReplyWaitMs ? nowMs : null
  if (line.action === 'INTERRUPT') {
    // Barge in while the assistant is still talking and has been for a while (a short "one moment" is not
    // the explanation to cut into); if it never talks that long, the caller speaks once it finished.
    const current = listener.voiced.at(-1)
    const talking = current !== undefined && current.start_ms >= afterMs && current.end_ms >= nowMs
    if (talking && nowMs - current.start_ms >= rules.bargeInAfterMs) return nowMs
  }
  const lastEnd = listener.lastVoicedEndMs ?? onset
  const finished = !assistantBusy && nowMs >= lastEnd + rules.replyQuietMs
  return finished ? Math.max(nowMs, lastEnd + rules.replyQuietMs + rules.callerGapMs) : null
}
