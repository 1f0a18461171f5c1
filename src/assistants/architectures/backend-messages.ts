// The backend's messages to the voice model (the reference's `backend_messages`), read from either
// architecture's record: the Responses backend's finished message items, or what the client application's
// backend answered each delegation with (in process or through a remote service).
import type { DelegationObservation } from './architecture.ts'

export function backendMessagesOf(observation: DelegationObservation): string[] {
  if (observation.architecture === 'responses') {
    return observation.records.backendMessages.map((message) => message.text)
  }
  return observation.records.events.flatMap((event) =>
    event.type === 'client_delegation.completed' && typeof event.text === 'string' && event.text.trim() !== ''
      ? [event.text]
      : [],
  )
}
