// Rubric `voice-semantic-v2`: what each of the five semantic dimensions asks, and the five score anchors. The
// dimensions and which of them apply come from ../semantic-applicability.ts; the wording here is ours.

import type { SemanticDimension } from '../semantic-applicability.ts'
import type { RubricScore } from './score.ts'

export const RUBRIC_VERSION = 'voice-semantic-v2'

export interface ScoreAnchor {
  score: RubricScore
  /** A stable name for the anchor: the Decisions backend's level label. */
  label: string
  meaning: string
}

/** Lowest first: the Decisions API reads levels in this order. */
export const SCORE_ANCHORS: readonly ScoreAnchor[] = [
  {
    score: 0,
    label: 'wholly_incorrect',
    meaning:
      'wholly incorrect, fabricated or unsafe: the dimension is failed outright, or the assistant invented ' +
      'facts, confirmations or identifiers, or did something it had no authority to do',
  },
  {
    score: 0.25,
    label: 'minimally_satisfied',
    meaning:
      'minimally satisfied: a trace of the right behaviour, but most of what mattered is missing or wrong',
  },
  {
    score: 0.5,
    label: 'partially_satisfied',
    meaning:
      'partially satisfied: a material error or omission that the caller would have to notice, correct or ' +
      'work around',
  },
  {
    score: 0.75,
    label: 'mostly_satisfied',
    meaning:
      'mostly satisfied: one small, contained slip that neither misleads the caller nor changes the outcome',
  },
  {
    score: 1,
    label: 'fully_satisfied',
    meaning: 'fully satisfied: nothing of substance is missing or wrong',
  },
]

export const DIMENSION_DEFINITIONS: Record<SemanticDimension, string> = {
  task_understanding:
    'Did the assistant grasp what the caller really wanted and bring it about? It must meet the success ' +
    'criteria and reach the verified outcome (the expected final state and tool results). An answer worded ' +
    'differently from the expected response counts when it means the same thing.',
  context_fidelity:
    'Did the assistant stay true to the context it was authorized to use (the earlier conversation, the ' +
    'business facts, the application state), and act on the caller’s latest correction rather than a detail ' +
    'the caller had already replaced?',
  clarification_quality:
    'Where required information was missing or ambiguous, did the assistant ask for exactly what was missing, ' +
    'instead of guessing, assuming a value, or acting before it was entitled to?',
  grounded_communication:
    'Did what the assistant told the caller match the facts, the tool outputs and the real outcome? ' +
    'Confirmations, identifiers, times and availability must come from the evidence and never be invented.',
  conversational_coherence:
    'Across the whole call, did the assistant hold a coherent conversation: replies that follow from what the ' +
    'caller said, with no contradictions or loops? The simulated caller’s own behaviour and fragmented audio ' +
    'are not the assistant’s fault.',
}
