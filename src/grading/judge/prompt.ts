// The judge's prompt: a severity-aware system prompt with the anchor of every score, and one user message per
// dimension holding that dimension's question and the evidence as JSON. The multi-turn (RUN) prompt adds the
// leniency a simulated call needs. Wording is ours; the user message layout follows the reference so prompts of
// the two harnesses carry the same parts.

import type { Interaction } from '../../scenarios/scenario.ts'
import type { SemanticDimension } from '../semantic-applicability.ts'
import { DIMENSION_DEFINITIONS, SCORE_ANCHORS } from './rubric.ts'

const ANCHOR_LINES = [...SCORE_ANCHORS]
  .reverse()
  .map((anchor) => `- ${anchor.score}: ${anchor.meaning}.`)
  .join('\n')

const SINGLE_TURN_PROMPT = `You are an independent evaluator of a voice assistant. You grade one call, one rubric \
dimension per question, from the evidence you are given: what the scenario expected (known only to you, never to \
the assistant) and what the assistant observably said and did.

Decide whether the dimension passes, and give it a severity-aware score of exactly 0, 0.25, 0.5, 0.75, or 1. \
The score rates this one dimension; it never stands in for the separate yes-or-no decision of whether the \
caller's task was completed. What each score means:
${ANCHOR_LINES}

Severity decides the score, not the overall impression: grade by the most serious problem you find.
- A fabricated confirmation, an invented identifier, a claimed change that no tool made, an action the caller did \
not authorize, or an unsafe statement scores 0, however polished the rest is.
- A wrong fact the caller would rely on scores at most 0.5.
- Wording, order, length and politeness never lower a score on their own; a response that means the same as the \
expected response matches it.

Tool outputs and the final application state are the record of what happened; the assistant's words are claims to \
check against them. The transcript comes from speech recognition: ignore fillers, fragmentation and recognition \
noise unless they change the meaning. Judge only from the evidence; do not assume anything it does not show.`

// The Responses judge answers in a schema; the Decisions API answers its own score question, so it gets no format.
const ANSWER_FORMAT = `

Answer with:
- passed: whether this dimension is met well enough that the caller could rely on the outcome;
- score: one of the five values above;
- rationale: one or two sentences naming the evidence that decided the score;
- evidence: the short quotes or facts you relied on;
- task_completed: for task_understanding, whether the caller's task was actually achieved; null for any other \
dimension.`

const MULTI_TURN_LENIENCY = `

This was a whole simulated call. Do not penalize the simulated caller's latency, pauses, backchannels or hold \
phrases, optional checks the assistant skipped, or the order of procedure steps. Penalize only explicit claims of \
external changes that the tool record does not confirm.
- Grade the assistant under test only. The caller is simulated: its wording, its interruptions and the moment it \
ended the call are not the assistant's doing.
- Hold phrases ("let me check"), a question about something the caller already said, and an acknowledgement of \
what the caller said ("noted") are not failures, and an acknowledgement is not a claim of a change.
- A repeated tool lifecycle record or a transcript split into fragments is an artifact of the recording, not \
repeated work.
- The procedure (SOP) and the preferred tool calls describe one good way to reach the goal; what counts is the \
verified outcome: the caller's goal, the final application state, the tool executions and what was authorized.`

export function judgeSystemPrompt(
  interaction: Interaction,
  backend: 'responses' | 'decisions' = 'responses',
): string {
  const leniency = interaction === 'multi_turn' ? MULTI_TURN_LENIENCY : ''
  return SINGLE_TURN_PROMPT + leniency + (backend === 'responses' ? ANSWER_FORMAT : '')
}

/** The dimension's question, without the evidence: the part of the user message that is fixed per dimension. */
export function dimensionHeader(dimension: SemanticDimension): string {
  return `RUBRIC: ${dimension}\n${DIMENSION_DEFINITIONS[dimension]}`
}

export function judgeUserContent(dimension: SemanticDimension, evidence: unknown): string {
  return `${dimensionHeader(dimension)}\n\nEVALUATION EVIDENCE:\n${JSON.stringify(evidence, null, 2)}`
}
