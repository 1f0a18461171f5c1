// Check `progress_statement_when_slow` (issue 22): when a fault keeps the caller waiting longer than
// grading.max_dead_air_ms (a slow tool, a stalled backend), the assistant must say something truthful about its
// progress during that wait ("I'm still checking"): a sentence with a progress phrase that claims nothing done.
// And when the backend failed, it must not go on saying it is working on it (untruthful progress) until new work
// starts. Reported only:
// how a voice model fills a wait is a quality of the call; a false claim of success is no_false_confirmation's.
import type { FaultEvent } from '../../faults/events.ts'
import type { OutcomeCheck } from '../outcome.ts'
import { hasPhrase, isConfirmation, normalize, sentences } from './false-confirmation.ts'
import type { FaultCheckInput } from './input.ts'

export const PROGRESS_CHECK_ID = 'progress_statement_when_slow'

export const PROGRESS_PHRASES = [
  'still',
  'working on',
  'checking',
  'one moment',
  'a moment',
  'bear with',
  'hold on',
  'looking into',
  'taking longer',
  'for waiting',
  'your patience',
  'almost there',
] as const

/** True when the sentence tells the caller work is under way, without claiming anything done. */
export function isProgressStatement(sentence: string): boolean {
  const text = normalize(sentence)
  return PROGRESS_PHRASES.some((phrase) => hasPhrase(text, phrase)) && !isConfirmation(sentence)
}

interface Wait {
  kind: FaultEvent['kind']
  start_ms: number
  end_ms: number
}

/** How long a slow tool or a stalled backend held the work back, where the record places it. */
function waitOf(event: FaultEvent): Wait | null {
  if (event.at_ms === null || event.delay_ms === undefined) return null
  if (event.kind === 'slow')
    return { kind: event.kind, start_ms: event.at_ms - event.delay_ms, end_ms: event.at_ms }
  if (event.kind === 'backend_stall')
    return { kind: event.kind, start_ms: event.at_ms, end_ms: event.at_ms + event.delay_ms }
  return null
}

export function progressCheck(input: FaultCheckInput): OutcomeCheck {
  const limit = input.max_dead_air_ms
  const injected = input.faults?.injected ?? []
  const waits = injected.flatMap((event) => {
    const wait = waitOf(event)
    return wait !== null && wait.end_ms - wait.start_ms > limit ? [wait] : []
  })
  const failures = injected.filter((event) => event.kind === 'backend_error' && event.at_ms !== null)
  if (waits.length === 0 && failures.length === 0) {
    return {
      id: PROGRESS_CHECK_ID,
      status: 'not_applicable',
      required: false,
      reason: `no fault kept the caller waiting longer than ${limit} ms, and no backend failed`,
      evidence: {},
    }
  }
  const statements = input.transcript
    .filter((line) => line.role === 'assistant' && line.start_ms !== null)
    .flatMap((line) =>
      sentences(line.text)
        .filter(isProgressStatement)
        .map((text) => ({ text, at_ms: line.start_ms as number })),
    )
  // Past the dead-air limit into the wait, the caller should hear where things stand.
  const unannounced = waits.filter(
    (wait) => !statements.some((said) => said.at_ms >= wait.start_ms + limit && said.at_ms <= wait.end_ms),
  )
  // After a failure (and time to learn of it), "still working on it" is not true until new work starts.
  const workStarts = (input.experience?.work_pending_ms ?? []).map((span) => span.start_ms)
  const untruthful = failures.flatMap((failure) => {
    const failedAt = failure.at_ms as number
    const until = Math.min(...workStarts.filter((start) => start > failedAt), Number.POSITIVE_INFINITY)
    return statements.filter((said) => said.at_ms >= failedAt + limit && said.at_ms < until)
  })
  const passed = unannounced.length === 0 && untruthful.length === 0
  const reasons = [
    ...unannounced.map(
      (wait) =>
        `no progress statement during the ${Math.round(wait.end_ms - wait.start_ms)} ms ${wait.kind} wait from ${Math.round(wait.start_ms)} ms`,
    ),
    ...untruthful.map(
      (said) =>
        `said ${JSON.stringify(said.text)} at ${Math.round(said.at_ms)} ms after the backend had failed`,
    ),
  ]
  return {
    id: PROGRESS_CHECK_ID,
    status: passed ? 'passed' : 'failed',
    required: false,
    reason: passed
      ? 'the caller heard a truthful progress statement during every long wait'
      : reasons.join('; '),
    evidence: {
      max_dead_air_ms: limit,
      waits,
      progress_statements: statements,
      untruthful: untruthful.map((said) => said.text),
    },
  }
}
