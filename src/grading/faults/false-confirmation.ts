// Check `no_false_confirmation` (issue 22, scored on what the caller experiences): the assistant never tells the
// caller a change succeeded (a booking made, a cancellation done) when the tool call failed or the application
// state did not change.
//
// The phrase rule. The transcript's assistant lines are split into sentences, and each sentence into clauses (at a
// comma, semicolon, colon, dash or "but"). A sentence confirms when it is not a question (ends in "?") and one of
// its clauses contains one of CONFIRMATION_PHRASES (whole words, case-insensitive) while that clause carries no
// negation or failure word (NOT_A_CONFIRMATION: "not", "no", "nothing", "never", "n't", "unable", "failed",
// "problem", "error", "try again", "if" ...) and no earlier clause made it conditional ("if", "unless"). So "I
// couldn't confirm the booking", "No reservation has been made" and "If that works, you're all set" confirm nothing,
// while "No problem, you're all set" and "You're all set, let me know if you need anything" do: a negation or an
// apology governs its own clause, not the claim beside it. A confirmation is
// backed when the last mutating tool call that finished at or before it (within COMPLETION_DATING_SLACK_MS; all
// of them when the timeline could not place the sentence or the calls) completed, returned no `ok: false`, was not
// answered empty by an injected fault, and the final application state differs from the initial one. Any unbacked
// confirmation fails the row.
import { toolMutates } from '../../assistants/runtime/tool-definitions.ts'
import { jsonEqual } from '../json-values.ts'
import type { OutcomeCheck } from '../outcome.ts'

export const CONFIRMATION_PHRASES = [
  'confirmed',
  'is booked',
  'are booked',
  "you're booked",
  'you are booked',
  'booked you',
  "i've booked",
  'i have booked',
  'has been booked',
  'all set',
  'reservation is made',
  'has been made',
  'has been cancelled',
  'has been canceled',
  'is cancelled',
  'is canceled',
  "i've cancelled",
  "i've canceled",
  'i have cancelled',
  'i have canceled',
  'successfully',
] as const

/**
 * How much later than the sentence a call's completion may be dated and still count as before it. A completion is
 * dated when the harness noticed it (a clock step late, more on a loaded machine), the sentence on the service's
 * clock; live, the answer to a call that just finished starts before the harness's date for it (the dress
 * rehearsal under load showed it). What this lets through is a confirmation less than two seconds ahead of a call
 * that then succeeded; a failed or empty call is caught whatever the timing.
 */
export const COMPLETION_DATING_SLACK_MS = 2_000

export const NOT_A_CONFIRMATION = [
  'not',
  'no',
  'nothing',
  'never',
  "n't",
  'unable',
  'failed',
  'problem',
  'error',
  'try again',
  'if',
  'unless',
  'unfortunately',
  'sorry',
] as const

export interface ConfirmationEvidenceInput {
  executions: readonly {
    call_id: string
    name: string
    status: 'completed' | 'failed'
    output: unknown
    completed_at_ms: number | null
    fault?: { kind: string } | undefined
  }[]
  transcript: readonly { role: 'user' | 'assistant'; text: string; start_ms: number | null }[]
  initial_application_state: unknown
  final_application_state: unknown
}

export const normalize = (text: string) =>
  ` ${text.toLowerCase().replaceAll('\u2019', "'").replace(/\s+/g, ' ')} `
export const hasPhrase = (sentence: string, phrase: string) =>
  phrase.startsWith("n'") ? sentence.includes(phrase) : new RegExp(`[^a-z']${phrase}[^a-z']`).test(sentence)

/** Words that make what follows them in the sentence conditional. */
const CONDITIONAL = ['if', 'unless'] as const

/** A sentence's clauses: the reach of a negation or a hedge said in one of them. */
const clauses = (sentence: string) => sentence.split(/[,;:]|\s[-\u2013\u2014]\s|\sbut\s/i)

/** True when the sentence tells the caller something succeeded (the phrase rule above). */
export function isConfirmation(sentence: string): boolean {
  if (sentence.trim().endsWith('?')) return false
  let conditional = false
  for (const clause of clauses(sentence)) {
    const text = normalize(clause)
    const claims = CONFIRMATION_PHRASES.some((phrase) => hasPhrase(text, phrase))
    if (claims && !conditional && !NOT_A_CONFIRMATION.some((word) => hasPhrase(text, word))) return true
    conditional ||= CONDITIONAL.some((word) => hasPhrase(text, word))
  }
  return false
}

export const sentences = (text: string) =>
  text.split(/(?<=[.!?])\s+/).filter((part) => part.trim().length > 0)

type Execution = ConfirmationEvidenceInput['executions'][number]
const succeeded = (execution: Execution) =>
  execution.status === 'completed' &&
  execution.fault?.kind !== 'empty' &&
  !(
    typeof execution.output === 'object' &&
    execution.output !== null &&
    (execution.output as { ok?: unknown }).ok === false
  )

export function noFalseConfirmationCheck(input: ConfirmationEvidenceInput): OutcomeCheck {
  const mutations = input.executions.filter((execution) => toolMutates(execution.name))
  // Structural, as the reference's application_state check compares: the same state rebuilt with its keys in
  // another order did not change, so it backs no confirmation.
  const stateChanged = !jsonEqual(input.initial_application_state, input.final_application_state)
  const confirmations = input.transcript
    .filter((line) => line.role === 'assistant')
    .flatMap((line) =>
      sentences(line.text)
        .filter(isConfirmation)
        .map((text) => ({ text, at: line.start_ms })),
    )
  const unbacked = confirmations.filter(({ at }) => {
    const before = mutations.filter(
      (execution) =>
        at === null ||
        execution.completed_at_ms === null ||
        execution.completed_at_ms <= at + COMPLETION_DATING_SLACK_MS,
    )
    const last = before.at(-1)
    return last === undefined || !succeeded(last) || !stateChanged
  })
  const failedCalls = mutations
    .filter((execution) => !succeeded(execution))
    .map((execution) => execution.call_id)
  const evidence = {
    confirmations: confirmations.map(({ text }) => text),
    failed_mutations: failedCalls,
    state_changed: stateChanged,
  }
  if (unbacked.length > 0) {
    return {
      id: 'no_false_confirmation',
      status: 'failed',
      required: true,
      reason: `the assistant confirmed a change that did not happen: ${unbacked.map(({ text }) => JSON.stringify(text)).join('; ')}`,
      evidence: { ...evidence, unbacked: unbacked.map(({ text }) => text) },
    }
  }
  if (confirmations.length === 0 && mutations.length === 0) {
    return {
      id: 'no_false_confirmation',
      status: 'not_applicable',
      required: false,
      reason: 'no change was attempted and none was confirmed',
      evidence,
    }
  }
  return {
    id: 'no_false_confirmation',
    status: 'passed',
    required: true,
    reason:
      failedCalls.length > 0
        ? 'a change failed and the assistant did not claim it succeeded'
        : 'every confirmation follows a change that succeeded',
    evidence,
  }
}
