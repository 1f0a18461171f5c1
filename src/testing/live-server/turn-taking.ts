// The offline voice model's turn after it heard the caller: answer directly, or delegate (Responses or
// client), which also requests the service's spoken acknowledgement (acknowledgements.ts). What it decides
// comes only from the assistant-owned offline behaviour, the words heard and what this session heard and
// said before (its conversation memory), never from evaluator data.
import type { OfflineBehaviour, SpokenTurn } from '../../assistants/offline-behaviour.ts'
import type { DelegationAcknowledgements } from './acknowledgements.ts'
import type { ClientDelegations } from './delegation-client.ts'
import { backendHasTool, type ResponsesDelegation } from './delegation-responses.ts'
import type { DelegationProgress } from './progress-updates.ts'
import type { ResolvedDelegation } from './session-resource.ts'
import type { Speaker } from './speech.ts'

export interface VoiceTurnContext {
  behaviour: OfflineBehaviour
  delegation: ResolvedDelegation
  speaker: Speaker
  responses: ResponsesDelegation | null
  clientDelegations: ClientDelegations
  acknowledgements: DelegationAcknowledgements
  progress: DelegationProgress
  /** The received-audio clock when the turn is taken. */
  nowMs: number
  /** The session's conversation before this utterance, oldest first. */
  earlier: readonly SpokenTurn[]
}

export function takeVoiceTurn(heardText: string, turn: VoiceTurnContext): void {
  const { behaviour, delegation, speaker, nowMs, earlier } = turn
  if (behaviour.reasonedReply !== undefined) {
    const reply = behaviour.reasonedReply(heardText, earlier)
    if (reply === null) return
    if (delegation.type === 'responses' && turn.responses !== null) {
      turn.responses.reason(delegation.responses, heardText, reply, nowMs)
    } else speaker.speak(reply, nowMs)
    return
  }
  const call = behaviour.inferToolCall(heardText, earlier)
  // A Responses backend without the needed tool cannot do the work; the voice model answers itself.
  const backendCannot =
    delegation.type === 'responses' && call !== null && !backendHasTool(delegation.responses, call.name)
  if (call === null || backendCannot) {
    speaker.speak(behaviour.directAnswer(heardText, earlier), nowMs)
    return
  }
  const delegationId =
    delegation.type === 'responses' && turn.responses !== null
      ? turn.responses.start(delegation.responses, heardText, call, nowMs)
      : turn.clientDelegations.start(nowMs)
  // The delay in force when the delegation starts applies to it (SDK: updates apply to later delegations).
  turn.acknowledgements.delegationCreated(delegationId, nowMs, delegation.acknowledgement_delay_ms ?? 0)
  turn.progress.delegationCreated(delegationId, nowMs)
}
