// A call that ends while the assistant is still talking has cut it off mid-utterance ("Your", "I couldn't"): its
// answer never reached the caller whole, so the call did not complete, whatever its drain said. Both drivers record
// it: the conversation carries `assistant_cut_off`, a call that would have counted as completed ends as
// `assistant_cut_off` instead (the RUN grade's conversation_completed check fails on it), and the details mark the
// assistant's last line `cut`.
import type { TimelineLine } from '../../observability/timeline.ts'

export interface CallEnd {
  /** Assistant speech had arrived that the caller had not heard yet. */
  bufferedSpeech: boolean
  /** End of the assistant's last voiced audio as the caller heard it; null if it never spoke. */
  lastAssistantVoiceEndMs: number | null
  endedAtMs: number
  /** Voice this close to the end counts as still going (one step or frame of the media clock). */
  withinMs: number
}

/** Whether the assistant was mid-utterance when the call ended. */
export function assistantCutOff(end: CallEnd): boolean {
  if (end.bufferedSpeech) return true
  const last = end.lastAssistantVoiceEndMs
  return last !== null && last >= end.endedAtMs - end.withinMs
}

/** The termination a cut-off call records: a completed call was not completed; any other reason stays. */
export function terminationWithCutOff<Reason extends string>(
  reason: Reason,
  cutOff: boolean,
): Reason | 'assistant_cut_off' {
  return cutOff && reason === 'response_completed' ? 'assistant_cut_off' : reason
}

/** The transcript for the details: the assistant's last line marked `cut` when the call cut it off. */
export function transcriptWithCutLine(
  lines: readonly TimelineLine[],
  cutOff: boolean,
): (TimelineLine & { cut?: true })[] {
  const marked: (TimelineLine & { cut?: true })[] = lines.map((line) => ({ ...line }))
  if (!cutOff) return marked
  const last = marked.findLast((line) => line.role === 'assistant')
  if (last !== undefined) last.cut = true
  return marked
}
