// The dress rehearsal's RUN caller: what the rehearsal server plays when a live RUN opens its GPT-Live caller
// session. The live harness tells that session only the caller brief (src/phases/run/brief.ts), so the server
// finds the scenario the way a reader of the brief would: it builds each RUN scenario's brief from the dataset
// (both openings: caller first and assistant first) and takes the one whose instructions the session was
// started with, word for word. The caller then says what the offline scripted caller says, from the same plan
// (scriptedCallerLines: its opening, each agenda item's hint or derived line, its goodbye), one line per turn
// of the assistant it heard, and nothing once its goodbye is said. It keeps listening through the service's
// "One moment." (work under way is not a turn to answer) and through backchannels.
//
// Only what a real caller has crosses into it: the brief (built from simulation_parameters and input.text) and
// what it heard. The scenario's expected outcome never reaches it.
import type { OfflineBehaviour, SpokenTurn } from '../../assistants/offline-behaviour.ts'
import { buildCallerBrief, type FirstSpeaker } from '../../phases/run/brief.ts'
import { type ScriptedLine, scriptedCallerLines } from '../../phases/run/offline-caller.ts'
import type { Scenario } from '../../scenarios/index.ts'
import { DEFAULT_ACKNOWLEDGEMENT } from '../live-server/index.ts'

/** The scenario's caller as the rehearsal plays it: who it is, how its session was told to open, its lines. */
export interface RehearsalCaller {
  scenarioId: string
  firstSpeaker: FirstSpeaker
  /** The caller's reasoning backend instructions the brief gives (checked against the session's, when sent). */
  backendInstructions: string
  lines: readonly ScriptedLine[]
  /** The persona's backchannels: hearing one is no turn to answer. */
  backchannels: readonly string[]
}

const FIRST_SPEAKERS: readonly FirstSpeaker[] = ['caller', 'assistant']

/** The callers of every RUN scenario of the datasets, by the instructions their session is started with. */
export class RehearsalCallerCast {
  readonly #byInstructions = new Map<string, RehearsalCaller>()
  /** The callers that play each scenario (one per opening; a shared brief's first scenario plays it). */
  readonly #byScenario = new Map<string, RehearsalCaller[]>()

  constructor(scenarios: readonly Pick<Scenario, 'id' | 'input' | 'simulation_parameters'>[]) {
    for (const scenario of scenarios) {
      const parameters = scenario.simulation_parameters
      if (parameters === null) continue
      const lines = scriptedCallerLines(parameters, scenario.input.text)
      for (const firstSpeaker of FIRST_SPEAKERS) {
        const brief = buildCallerBrief({ parameters, openingText: scenario.input.text, firstSpeaker })
        // Two scenarios with the same caller brief are the same caller: the first one named plays it.
        const caller = this.#byInstructions.get(brief.instructions) ?? {
          scenarioId: scenario.id,
          firstSpeaker,
          backendInstructions: brief.backendInstructions,
          lines,
          backchannels: parameters.persona.backchannels,
        }
        this.#byInstructions.set(brief.instructions, caller)
        this.#byScenario.set(scenario.id, [...(this.#byScenario.get(scenario.id) ?? []), caller])
      }
    }
  }

  get size(): number {
    return this.#byInstructions.size
  }

  /** The callers that play `scenarioId` (its caller-first and assistant-first briefs); none for another id. */
  callersOf(scenarioId: string): readonly RehearsalCaller[] {
    return this.#byScenario.get(scenarioId) ?? []
  }

  /** The caller a session was started with `instructions` plays; null when they are no caller brief we know. */
  identify(instructions: string | null | undefined): RehearsalCaller | null {
    if (instructions === null || instructions === undefined) return null
    return this.#byInstructions.get(instructions) ?? null
  }
}

const normalized = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()

/** What a caller hears as "wait": the service's acknowledgement while delegated work runs. */
const HOLDS = new Set([DEFAULT_ACKNOWLEDGEMENT, 'One moment, please.', 'Let me check.'].map(normalized))

/**
 * What the caller says after hearing `heard`, given the caller session's memory (`earlier`: what it heard as
 * `user`, what it said itself as `assistant`); null to keep listening. Its next line is the first it has not
 * said yet, so a caller-first opening (spoken from the harness's commentary) counts as said, and an
 * assistant-first caller opens with its opening line once it heard the greeting.
 */
export function callerReply(
  caller: Pick<RehearsalCaller, 'lines' | 'backchannels'>,
  heard: string,
  earlier: readonly SpokenTurn[],
): string | null {
  return lineAfterHearing(caller, heard, earlier.filter((turn) => turn.role === 'assistant').length)
}

/** The caller's line after hearing `heard` once it said `saidCount` lines; null to keep listening. */
export function lineAfterHearing(
  caller: Pick<RehearsalCaller, 'lines' | 'backchannels'>,
  heard: string,
  saidCount: number,
): string | null {
  const words = normalized(heard)
  if (words === '' || HOLDS.has(words)) return null
  if (caller.backchannels.some((backchannel) => normalized(backchannel) === words)) return null
  return caller.lines[saidCount]?.text ?? null
}

/**
 * The caller as the offline voice model plays it: no tools, and every reply decided by its reasoning backend
 * (a Responses round on the caller's session, whose message it speaks). The three tool-era methods are never
 * reached (reasonedReply takes the turn); they keep the caller harmless if a session ignored it.
 */
export function callerBehaviour(caller: RehearsalCaller): OfflineBehaviour {
  return {
    reasonedReply: (heard, earlier = []) => callerReply(caller, heard, earlier),
    inferToolCall: () => null,
    directAnswer: (heard, earlier = []) => callerReply(caller, heard, earlier) ?? 'Mm-hmm.',
    finalAnswer: () => 'Okay.',
  }
}
