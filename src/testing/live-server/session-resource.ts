// The resolved session snapshot (`SessionResource`) reported in session.started / updated / closed.
import type { SessionResource } from 'openai/resources/live/live'
import type { OfflineAudioFormat, ParsedSessionConfig } from './session-config-schema.ts'

export const DEFAULT_AUDIO_FORMAT: OfflineAudioFormat = { type: 'audio/pcm', rate: 24_000 }
export const DEFAULT_VOICE = 'marin'

export type ResolvedDelegation = NonNullable<SessionResource['delegation']>

/** Omitted or null delegation means client delegation. */
export function resolveDelegation(config: ParsedSessionConfig): ResolvedDelegation {
  return config.delegation ?? { type: 'client' }
}

export function sessionResource(
  id: string,
  expiresAt: number,
  config: ParsedSessionConfig,
  delegation: ResolvedDelegation,
): SessionResource {
  const resource: SessionResource = {
    id,
    expires_at: expiresAt,
    model: config.model,
    status: 'active',
    instructions: config.instructions ?? null,
    audio: {
      format: config.audio?.format ?? DEFAULT_AUDIO_FORMAT,
      output: { voice: config.audio?.output?.voice ?? DEFAULT_VOICE },
    },
    delegation,
    input: config.input ?? [],
    store: config.store ?? false,
  }
  if (config.client !== undefined) resource.client = config.client
  if (config.safety_identifier !== undefined) resource.safety_identifier = config.safety_identifier
  return resource
}
