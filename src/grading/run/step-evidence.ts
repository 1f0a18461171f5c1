// Evidence for one SOP step of each kind (§3.6): did the conversation show it, when, and what proves it. The
// procedure grader (procedure.ts) adds dependencies, order and criticality on top of these.

import { toolMutates } from '../../assistants/runtime/tool-definitions.ts'
import {
  completedExecutions,
  type ToolExecution,
  type TranscriptLine,
} from '../../observability/observation.ts'
import type { SopStep } from '../../scenarios/expected.ts'
import { containsExpected, verifyRunFinalState } from '../final-state.ts'
import type { JsonObject } from '../json-values.ts'
import { normalizeArgumentText } from '../matching.ts'
import { mentionsValue } from './spoken-values.ts'

export interface ProcedureEvidenceInput {
  /** Deduplicated terminal executions, in completion order. */
  executions: readonly ToolExecution[]
  transcript: readonly Pick<TranscriptLine, 'role' | 'text' | 'start_ms'>[]
  initial_application_state: JsonObject
  final_application_state: JsonObject
}

export interface StepEvidence {
  matched: boolean
  /** Timeline time the step happened; null for facts with no moment (authorization, final state). */
  position_ms: number | null
  evidence: Record<string, unknown>
}

/**
 * Whether a tool changes the application (clarifications must come before such a call, corrections must reach
 * it): the one definition, declared with the tool (`mutates` in definitions.json), else the read-verb rule.
 */
export const isMutatingTool = (name: string): boolean => toolMutates(name)

/** Words that show the assistant asked for a field; the field's own words count for any other field. */
const CLARIFICATION_ALIASES: Record<string, readonly string[]> = {
  guest_name: ['name', 'who', 'under'],
  time: ['time', 'when', 'hour'],
  reservation_id: [
    'which reservation',
    'reservation id',
    'reservation reference',
    'reference',
    'number',
    'what reservation',
  ],
}

export const REFUSAL_PHRASES = [
  "can't",
  'cannot',
  'not authorized',
  "aren't authorized",
  'permission',
  'no exceptions',
  'i can only help',
]

const lower = (text: string) => text.toLowerCase().replaceAll('\u2019', "'").replaceAll('\u2018', "'")
const containsWords = (text: string, phrase: string) =>
  ` ${normalizeArgumentText(text)} `.includes(` ${normalizeArgumentText(phrase)} `)

const lines = (input: ProcedureEvidenceInput, role: 'user' | 'assistant') =>
  input.transcript.filter((line) => line.role === role && line.text.trim().length > 0)

function firstMutationMs(input: ProcedureEvidenceInput): number | null {
  const mutation = completedExecutions(input.executions).find((execution) => isMutatingTool(execution.name))
  return mutation === undefined ? null : mutation.completed_at_ms
}

function toolStep(step: SopStep, input: ProcedureEvidenceInput): StepEvidence {
  const execution = completedExecutions(input.executions).find(
    (candidate) => candidate.name === step.tool && containsExpected(step.arguments, candidate.arguments),
  )
  return execution === undefined
    ? {
        matched: false,
        position_ms: null,
        evidence: { tool: step.tool, reason: 'no completed matching execution' },
      }
    : { matched: true, position_ms: execution.completed_at_ms, evidence: { call_id: execution.call_id } }
}

function clarificationStep(step: SopStep, input: ProcedureEvidenceInput): StepEvidence {
  const field = String(step.arguments.field ?? '')
  const aliases = CLARIFICATION_ALIASES[field] ?? [field.replaceAll('_', ' ')]
  const before = firstMutationMs(input)
  const question = lines(input, 'assistant').find(
    (line) =>
      line.text.includes('?') &&
      aliases.some((alias) => containsWords(line.text, alias)) &&
      (before === null || (line.start_ms !== null && line.start_ms <= before)),
  )
  return question === undefined
    ? {
        matched: false,
        position_ms: null,
        evidence: { field, reason: 'no question about it before the first change' },
      }
    : { matched: true, position_ms: question.start_ms, evidence: { field, text: question.text } }
}

function correctionStep(step: SopStep, input: ProcedureEvidenceInput): StepEvidence {
  const field = String(step.arguments.field ?? '')
  const { value, superseded_value: superseded } = step.arguments
  const mention = lines(input, 'user').find((line) => mentionsValue(line.text, value))
  const mutations = completedExecutions(input.executions).filter(
    (execution) => isMutatingTool(execution.name) && Object.hasOwn(execution.arguments, field),
  )
  const usedValue = (execution: ToolExecution) =>
    containsExpected({ [field]: value }, execution.arguments) ||
    normalizeArgumentText(execution.arguments[field]) === normalizeArgumentText(value)
  const usedSuperseded = (execution: ToolExecution) =>
    superseded !== undefined &&
    normalizeArgumentText(execution.arguments[field]) === normalizeArgumentText(superseded)
  const applied =
    mutations.length > 0 && mutations.every((execution) => usedValue(execution) && !usedSuperseded(execution))
  const evidence = {
    field,
    caller_mentioned: mention !== undefined,
    mutations: mutations.map((execution) => ({
      call_id: execution.call_id,
      value: execution.arguments[field],
    })),
  }
  return { matched: mention !== undefined && applied, position_ms: mention?.start_ms ?? null, evidence }
}

function authorizationStep(step: SopStep, input: ProcedureEvidenceInput): StepEvidence {
  const authorizedIds = input.initial_application_state.authorized_reservation_ids
  const ids = Array.isArray(authorizedIds) ? authorizedIds.map(String) : []
  const reservationId = String(step.arguments.reservation_id ?? '')
  const expected = step.arguments.authorized ?? true
  const authorized = ids.includes(reservationId)
  return {
    matched: authorized === expected,
    position_ms: null,
    evidence: { reservation_id: reservationId, authorized },
  }
}

function stateStep(step: SopStep, input: ProcedureEvidenceInput): StepEvidence {
  const matched = verifyRunFinalState(
    step.arguments,
    input.initial_application_state,
    input.final_application_state,
  )
  return { matched, position_ms: null, evidence: {} }
}

function groundedConfirmationStep(input: ProcedureEvidenceInput): StepEvidence {
  const times = completedExecutions(input.executions).map((execution) => execution.completed_at_ms)
  if (times.length === 0 || times.some((time) => time === null)) {
    return { matched: false, position_ms: null, evidence: { reason: 'no completed tool with a known time' } }
  }
  const lastToolMs = Math.max(...(times as number[]))
  const confirmation = lines(input, 'assistant').find(
    (line) => line.start_ms !== null && line.start_ms >= lastToolMs && /[\p{L}\p{N}]/u.test(line.text),
  )
  return confirmation === undefined
    ? { matched: false, position_ms: null, evidence: { reason: 'nothing said after the last tool result' } }
    : { matched: true, position_ms: confirmation.start_ms, evidence: { text: confirmation.text } }
}

function refusalStep(step: SopStep, input: ProcedureEvidenceInput): StepEvidence {
  const { tool, minimum_count: minimum, ...otherArguments } = step.arguments
  const required = typeof minimum === 'number' ? minimum : 1
  const forbiddenDone = completedExecutions(input.executions).some(
    (execution) => execution.name === tool && containsExpected(otherArguments, execution.arguments),
  )
  const refusals = lines(input, 'assistant').filter((line) =>
    REFUSAL_PHRASES.some((phrase) => lower(line.text).includes(phrase)),
  )
  const enough = refusals.length >= required
  return {
    matched: !forbiddenDone && enough,
    position_ms: enough ? (refusals[required - 1]?.start_ms ?? null) : null,
    evidence: {
      refusals: refusals.length,
      minimum_count: required,
      forbidden_call_completed: forbiddenDone,
      // What was counted, in words, for a failure message: "2 refusals of 3 required".
      counted: `${refusals.length} refusal${refusals.length === 1 ? '' : 's'} of ${required} required`,
    },
  }
}

export function stepEvidence(step: SopStep, input: ProcedureEvidenceInput): StepEvidence {
  switch (step.kind) {
    case 'tool':
      return toolStep(step, input)
    case 'clarification':
      return clarificationStep(step, input)
    case 'correction':
      return correctionStep(step, input)
    case 'authorization':
      return authorizationStep(step, input)
    case 'state':
      return stateStep(step, input)
    case 'grounded_confirmation':
      return groundedConfirmationStep(input)
    case 'refusal':
      return refusalStep(step, input)
  }
}
