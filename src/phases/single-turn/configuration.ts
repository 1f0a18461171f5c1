// The `configuration` block of a single-turn run's results.json (reference §4.1), shared by CRAWL and WALK: they
// differ only by the audio source and CRAWL's text-to-speech keys, which sit after `voice` as the reference
// orders them.
import type { Architecture } from '../../assistants/frontend/index.ts'
import type { SingleTurnSettings } from '../engine/execution.ts'

export function singleTurnConfiguration(
  settings: SingleTurnSettings,
  architecture: Architecture,
  audioSource: 'synthetic' | 'recorded',
  speechKeys: Record<string, unknown> = {},
): Record<string, unknown> {
  const endpoint = settings.assistant.endpoint.trim()
  return {
    audio_source: audioSource,
    model: settings.models.live_model,
    backend_model: settings.models.backend_model,
    assistant_mode: architecture,
    assistant_endpoint: architecture === 'client' && endpoint !== '' ? endpoint : null,
    voice: settings.models.live_voice,
    ...speechKeys,
    concurrency: settings.execution.concurrency,
    sample_rate_hz: settings.audio.sample_rate_hz,
    chunk_ms: settings.audio.chunk_ms,
    real_time: settings.execution.mode === 'live' || settings.audio.real_time,
  }
}
