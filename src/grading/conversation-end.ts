// How a conversation ended, as the conversation_completed check explains it when it fails. "The conversation must
// end normally" alone names neither why it did not nor what to change; the commonest RUN case is a call that ran
// into simulation.max_duration_seconds, which is a setting the user can raise.

export interface ConversationEnd {
  /** The observation's termination reason; null when it is unknown. */
  termination_reason: string | null
  /** RUN: simulation.max_duration_seconds, the limit a `duration_limit` termination reached; null when unknown. */
  max_duration_seconds?: number | null
}

const MUST_END_NORMALLY = 'The conversation must end normally.'

/** The check's reason and evidence: unchanged when the conversation completed, explained when it did not. */
export function conversationEndExplanation(
  end: ConversationEnd | undefined,
  completed: boolean,
): { reason: string; evidence: Record<string, unknown> } {
  if (completed || end === undefined) return { reason: MUST_END_NORMALLY, evidence: {} }
  const { termination_reason } = end
  if (termination_reason !== 'duration_limit') {
    return {
      reason: `${MUST_END_NORMALLY} It ended with ${termination_reason ?? 'an unknown termination reason'}.`,
      evidence: { termination_reason },
    }
  }
  const limit = end.max_duration_seconds ?? null
  const reached =
    limit === null
      ? 'the maximum duration (simulation.max_duration_seconds)'
      : `the maximum duration (${limit} s, simulation.max_duration_seconds)`
  return {
    reason:
      `${MUST_END_NORMALLY} The call reached ${reached} before it ended; raise ` +
      'simulation.max_duration_seconds if this scenario needs a longer call.',
    evidence: {
      termination_reason,
      max_duration_seconds: limit,
      setting: 'simulation.max_duration_seconds',
    },
  }
}
