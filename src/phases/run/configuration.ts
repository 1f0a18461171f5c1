// The `configuration` block of a RUN run's results.json (reference §4.1), for one architecture. Offline the
// caller is the scripted participant, which has no voice model or reasoning backend of its own: those keys are
// null rather than the settings' values, so a reader never thinks an offline run used them.
import type { Architecture } from '../../assistants/frontend/index.ts'
import type { RunSettings } from '../../config/index.ts'
import { INTERACTION_METRICS_VERSION } from '../../metrics/interaction.ts'

export function runConfiguration(settings: RunSettings, architecture: Architecture): Record<string, unknown> {
  const endpoint = settings.assistant.endpoint.trim()
  const live = settings.execution.mode === 'live'
  const simulation = settings.simulation
  return {
    model: settings.models.live_model,
    backend_model: settings.models.backend_model,
    assistant_mode: architecture,
    assistant_endpoint: architecture === 'client' && endpoint !== '' ? endpoint : null,
    voice: settings.models.live_voice,
    first_speaker: simulation.assistant_first_prompt_file === null ? 'caller' : 'assistant',
    // The caller's own model, the same for every model under test (simulation.simulator_model).
    simulator_model: live ? simulation.simulator_model : null,
    // The caller speaks in each persona's own voice (never the assistant's: live/caller-session.ts), so there is no
    // one voice for the run; each conversation's details JSON names the voice its caller used.
    simulator_voice: null,
    simulator_backend_model: live ? simulation.simulator_backend_model : null,
    simulator_backend_reasoning_effort: live ? simulation.simulator_backend_reasoning_effort : null,
    semantic_drain: live ? simulation.semantic_drain : false,
    completion_model: live && simulation.semantic_drain ? simulation.completion_model : null,
    completion_timeout_seconds: simulation.completion_timeout_seconds,
    work_grace_seconds: simulation.work_grace_seconds,
    cleanup_timeout_seconds: simulation.cleanup_timeout_seconds,
    concurrency: settings.execution.concurrency,
    audio_condition: simulation.condition,
    audio_realism: null,
    tick_ms: simulation.tick_ms,
    metrics_version: INTERACTION_METRICS_VERSION,
    response_deadline_ms: simulation.response_deadline_ms,
    seed: simulation.seed,
  }
}
