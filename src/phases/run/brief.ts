// The simulated caller's brief (reference §6): the instructions its voice session and its reasoning backend
// get. It is built from `simulation_parameters` and `input.text` only, which is what a real caller would know
// before dialling. The function takes exactly those two values (never the scenario), so nothing evaluator-only
// (expected answer, criteria, golden tools or state, procedure) can reach the caller by accident.
import type { CallerAgendaItem, SimulationParameters } from '../../scenarios/simulation.ts'
import { NON_SUBSTANTIVE_ACTIONS } from '../../scenarios/simulation.ts'

export type FirstSpeaker = 'caller' | 'assistant'

export interface CallerBriefInput {
  parameters: SimulationParameters
  /** The scenario's `input.text`: what the caller says to open the call. */
  openingText: string
  firstSpeaker: FirstSpeaker
}

export interface CallerBrief {
  /** The caller's voice session instructions. */
  instructions: string
  /** The caller's reasoning backend instructions (the same knowledge; it decides what to say). */
  backendInstructions: string
  /** The persona voice (it must differ from the assistant's; the driver checks that). */
  voice: string
  /** What the caller says first. */
  openingText: string
}

/** "guest_name" reads as "guest name": the caller's facts are things it knows, not field names. */
function factLine(key: string, value: string | number | boolean): string {
  return `- ${key.replaceAll('_', ' ')}: ${String(value)}`
}

/** One plan line per agenda item the caller has to get done; finishing and waiting are covered by the rules. */
export function conversationPlanLines(agenda: readonly CallerAgendaItem[]): string[] {
  return agenda
    .filter((item) => !NON_SUBSTANTIVE_ACTIONS.has(item.action))
    .map((item) => `- ${item.trigger_condition}: ${item.response_hint.trim() || item.commitment}`)
}

const LISTENING_RULES = [
  'Answer in one or two short sentences, then let the assistant speak.',
  'While the assistant talks for more than about two seconds, you may now and then acknowledge with a short "Mm-hmm", "Right" or "Okay".',
  'Once the outcome is confirmed, or the assistant has clearly and finally refused, say a short goodbye and stop.',
]

const DELEGATION_RULES = [
  'Use your reasoning backend to decide what to say next and to work out corrections.',
  'You have no tools. Never call one, and never invent facts you were not given; if asked something you do not know, say so.',
]

function section(title: string, lines: readonly string[]): string {
  return lines.length === 0 ? '' : `\n\n## ${title}\n${lines.join('\n')}`
}

export function buildCallerBrief(input: CallerBriefInput): CallerBrief {
  const { parameters, openingText, firstSpeaker } = input
  const { persona } = parameters
  const opening =
    firstSpeaker === 'caller'
      ? `You place the call and speak first. Open with: "${openingText}"`
      : `The assistant speaks first. Wait for its greeting, then say what you called about: "${openingText}"`
  const identity = [
    'You are a caller on a phone call with a restaurant assistant. You are the customer, not the assistant.',
    persona.description,
    persona.speech_instructions,
    `Verbosity: ${persona.verbosity}.`,
  ]
    .filter((line) => line.trim().length > 0)
    .join('\n')
  const body =
    identity +
    section('Your goal', parameters.goal.trim() ? [parameters.goal.trim()] : []) +
    section(
      'What you know',
      Object.entries(parameters.known_facts).map(([key, value]) => factLine(key, value)),
    ) +
    section('Conversation plan', [
      ...conversationPlanLines(parameters.agenda),
      ...parameters.expectations.map((line) => `- ${line}`),
    ]) +
    section('Opening', [opening]) +
    section('Listening', LISTENING_RULES)
  return {
    instructions: body + section('Reasoning', DELEGATION_RULES),
    backendInstructions: `${body}\n\n## Your role\nDecide what the caller says next, in the caller's words. ${DELEGATION_RULES[1]}`,
    voice: persona.voice,
    openingText,
  }
}

/** The brief of a scenario's caller: reads `simulation_parameters` and `input.text`, nothing else. */
export function callerBriefOf(
  scenario: { simulation_parameters: SimulationParameters | null; input: { text: string }; id: string },
  firstSpeaker: FirstSpeaker,
): CallerBrief {
  if (scenario.simulation_parameters === null) {
    throw new Error(
      `Scenario ${scenario.id}: a RUN caller needs simulation_parameters; add them (persona, goal, known_facts, agenda).`,
    )
  }
  return buildCallerBrief({
    parameters: scenario.simulation_parameters,
    openingText: scenario.input.text,
    firstSpeaker,
  })
}
