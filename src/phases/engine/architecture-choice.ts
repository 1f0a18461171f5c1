// The one place an architecture name becomes the assistant under test's architecture object: offline client
// delegation is answered by the client copy's deterministic backend, live by the OpenAI reference backend, and
// either mode by a separately deployed application when OPENAI_CLIENT_ASSISTANT_ENDPOINT (`assistant.endpoint`)
// is set: the remote connector, whose tool evidence and state come from that service. Never the offline
// backend in a live run.
import type { AssistantApplication } from '../../assistants/application.ts'
import {
  type AssistantArchitecture,
  clientDelegation,
  offlineClientBackend,
  responsesDelegation,
} from '../../assistants/architectures/index.ts'
import { liveClientBackend } from '../../assistants/architectures/live-client-backend.ts'
import { isOptedIn, usesRemoteClientAssistant } from '../../assistants/architectures/remote/endpoint.ts'
import { remoteClientDelegation } from '../../assistants/architectures/remote/index.ts'
import type { Architecture } from '../../assistants/frontend/index.ts'
import type { PhaseSettings } from '../../config/index.ts'

/**
 * Send the scenario's initial application state and conversation summary to a remote client assistant (which
 * must have been started with `--accept-scenario-state`). Read here until it is a setting of its own; the
 * same truthy words as the insecure-loopback opt-in.
 */
export const SEND_SCENARIO_STATE_VARIABLE = 'LIVE_EVALS_CLIENT_ASSISTANT_SCENARIO_STATE'

export interface ArchitectureChoiceOptions {
  /** Where SEND_SCENARIO_STATE_VARIABLE is read; default process.env. */
  env?: Readonly<Record<string, string | undefined>>
  /**
   * The assistant's application (a user's defineAssistant); default: the bundled restaurant in the
   * architecture's own copy. A remote client assistant runs its backend, tools and state in the service; from
   * this it takes only what the evaluator side fronts (voice prompt, tool definitions, offline voice behaviour).
   */
  application?: AssistantApplication
}

const ARCHITECTURES: Record<
  Architecture,
  (settings: PhaseSettings, options: ArchitectureChoiceOptions) => AssistantArchitecture
> = {
  responses: (_settings, options) => responsesDelegation(options.application),
  client: (settings, options) => {
    if (usesRemoteClientAssistant(settings)) {
      // Checked when a scenario connects (before any socket), so a bad endpoint fails each scenario with its
      // own message rather than the whole file, and a responses-only run never trips over it.
      return remoteClientDelegation({
        endpoint: settings.assistant.endpoint.trim(),
        token: settings.credentials.client_assistant_token ?? undefined,
        allowInsecureLoopback: settings.connection.client_assistant_allow_insecure_loopback,
        openAiKeys: {
          OPENAI_API_KEY: settings.credentials.openai_api_key ?? undefined,
          OPENAI_RESPONSES_API_KEY: settings.credentials.responses_api_key ?? undefined,
        },
        sendScenarioState: isOptedIn((options.env ?? process.env)[SEND_SCENARIO_STATE_VARIABLE]),
        ...(options.application === undefined ? {} : { application: options.application }),
      })
    }
    return clientDelegation(
      settings.execution.mode === 'offline' ? offlineClientBackend : liveClientBackend(settings),
      options.application,
    )
  },
}

/** Call once per test file: a live client architecture holds one openai client for all its scenarios. */
export function architectureFor(
  name: Architecture,
  settings: PhaseSettings,
  options: ArchitectureChoiceOptions = {},
): AssistantArchitecture {
  return ARCHITECTURES[name](settings, options)
}
