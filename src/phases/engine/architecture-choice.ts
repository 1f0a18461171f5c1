// The one place an architecture name becomes the assistant under test's architecture object: offline client
// delegation is answered by the client copy's deterministic backend, live by the OpenAI reference backend.
// Never the offline backend in a live run.
import {
  type AssistantArchitecture,
  clientDelegation,
  offlineClientBackend,
  responsesDelegation,
} from '../../assistants/architectures/index.ts'
import { liveClientBackend } from '../../assistants/architectures/live-client-backend.ts'
import type { Architecture } from '../../assistants/frontend/index.ts'
import type { SingleTurnSettings } from './execution.ts'

const ARCHITECTURES: Record<Architecture, (settings: SingleTurnSettings) => AssistantArchitecture> = {
  responses: () => responsesDelegation(),
  client: (settings) =>
    clientDelegation(
      settings.execution.mode === 'offline' ? offlineClientBackend : liveClientBackend(settings),
    ),
}

/** Call once per test file: a live client architecture holds one openai client for all its scenarios. */
export function architectureFor(name: Architecture, settings: SingleTurnSettings): AssistantArchitecture {
  return ARCHITECTURES[name](settings)
}
