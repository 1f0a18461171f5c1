// The one place an architecture name becomes the assistant under test's architecture object: offline client
// delegation is answered by the client copy's deterministic backend, live by the OpenAI reference backend.
// Never the offline backend in a live run. `application` is the assistant's (a user's defineAssistant, or by
// default the bundled restaurant in the architecture's own copy).
import type { AssistantApplication } from '../../assistants/application.ts'
import {
  type AssistantArchitecture,
  clientDelegation,
  offlineClientBackend,
  responsesDelegation,
} from '../../assistants/architectures/index.ts'
import { liveClientBackend } from '../../assistants/architectures/live-client-backend.ts'
import type { Architecture } from '../../assistants/frontend/index.ts'
import type { SingleTurnSettings } from './execution.ts'

type ArchitectureFactory = (
  settings: SingleTurnSettings,
  application: AssistantApplication | undefined,
) => AssistantArchitecture

const ARCHITECTURES: Record<Architecture, ArchitectureFactory> = {
  responses: (_settings, application) => responsesDelegation(application),
  client: (settings, application) =>
    clientDelegation(
      settings.execution.mode === 'offline' ? offlineClientBackend : liveClientBackend(settings),
      application,
    ),
}

/** Call once per test file and assistant: a live client architecture holds one openai client. */
export function architectureFor(
  name: Architecture,
  settings: SingleTurnSettings,
  application?: AssistantApplication,
): AssistantArchitecture {
  return ARCHITECTURES[name](settings, application)
}
