// Which backend the reference service runs, and why, in one sentence the command prints as its second line.
// Offline when asked (--offline) or when no OpenAI key is set: a developer without a key still gets a working
// service, and is told so. Otherwise the OpenAI reference backend, with its model settings read from the same
// variables the harness uses (OPENAI_LIVE_BACKEND_*), checked here so a bad value stops the start.
import { DEFAULT_MODELS } from '../../../config/defaults.ts'
import { REASONING_EFFORTS } from '../../../config/schema.ts'
import { backendOpenAiClient } from '../backend/openai-client.ts'
import {
  offlineRestaurantApplication,
  openAiRestaurantApplication,
  type ServiceApplication,
} from './application.ts'

export interface BackendChoice {
  kind: 'openai' | 'offline'
  application: ServiceApplication
  /** "backend: …" with the reason; names variables, never their values. */
  description: string
}

export interface BackendChoiceOptions {
  offline: boolean
  env?: Readonly<Record<string, string | undefined>>
  /** Another Responses endpoint (tests); default the SDK's (OPENAI_BASE_URL or the OpenAI API). */
  baseURL?: string
}

const KEY_VARIABLES = ['OPENAI_RESPONSES_API_KEY', 'OPENAI_API_KEY'] as const
type ReasoningEffort = (typeof REASONING_EFFORTS)[number]

export class BackendSettingsError extends Error {
  override name = 'BackendSettingsError'
}

export function chooseReferenceApplication(options: BackendChoiceOptions): BackendChoice {
  const env = options.env ?? process.env
  if (options.offline) {
    return offline('--offline was given')
  }
  const keyVariable = KEY_VARIABLES.find((variable) => (env[variable]?.trim() ?? '') !== '')
  if (keyVariable === undefined) {
    return offline(`neither ${KEY_VARIABLES.join(' nor ')} is set`)
  }
  const model = env.OPENAI_LIVE_BACKEND_MODEL?.trim() || DEFAULT_MODELS.backend_model
  const reasoningEffort = reasoningEffortFrom(env.OPENAI_LIVE_BACKEND_REASONING_EFFORT)
  const maxOutputTokens = maxOutputTokensFrom(env.OPENAI_LIVE_BACKEND_MAX_OUTPUT_TOKENS)
  const client = backendOpenAiClient({
    env,
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
  })
  return {
    kind: 'openai',
    application: openAiRestaurantApplication({ client, model, reasoningEffort, maxOutputTokens }),
    description:
      `backend: OpenAI Responses (model ${model}, reasoning ${reasoningEffort}, store:false replay), ` +
      `because ${keyVariable} is set; pass --offline for the offline backend`,
  }
}

function offline(reason: string): BackendChoice {
  return {
    kind: 'offline',
    application: offlineRestaurantApplication,
    description: `backend: offline (the deterministic restaurant backend), because ${reason}`,
  }
}

function reasoningEffortFrom(value: string | undefined): ReasoningEffort {
  const text = value?.trim() || DEFAULT_MODELS.backend_reasoning_effort
  if ((REASONING_EFFORTS as readonly string[]).includes(text)) return text as ReasoningEffort
  throw new BackendSettingsError(
    `OPENAI_LIVE_BACKEND_REASONING_EFFORT must be one of ${REASONING_EFFORTS.join(', ')}`,
  )
}

function maxOutputTokensFrom(value: string | undefined): number {
  const text = value?.trim() ?? ''
  if (text === '') return DEFAULT_MODELS.backend_max_output_tokens
  const tokens = Number(text)
  // The Responses API refuses fewer than 16.
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(tokens) || tokens < 16) {
    throw new BackendSettingsError(
      'OPENAI_LIVE_BACKEND_MAX_OUTPUT_TOKENS must be a whole number of at least 16',
    )
  }
  return tokens
}
