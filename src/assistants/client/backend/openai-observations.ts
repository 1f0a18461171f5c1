// Stream events as the reference backend publishes them for observation: the same events, made small and
// safe to keep. A `response` keeps only id, status, model, usage and error (no instructions, tools or
// replayed input); an `item` loses its `encrypted_content` (opaque reasoning the evaluator cannot use).
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import type { ObservationEvent } from './application-backend.ts'

const KEPT_RESPONSE_FIELDS = ['id', 'status', 'model', 'usage', 'error'] as const

export function observedStreamEvent(event: ResponseStreamEvent): ObservationEvent {
  const observed = structuredClone(event) as unknown as ObservationEvent
  const response = observed.response
  if (typeof response === 'object' && response !== null) {
    const source = response as Record<string, unknown>
    observed.response = Object.fromEntries(
      KEPT_RESPONSE_FIELDS.filter((field) => field in source).map((field) => [field, source[field]]),
    )
  }
  const item = observed.item
  if (typeof item === 'object' && item !== null && 'encrypted_content' in item) {
    const { encrypted_content: _opaque, ...rest } = item as Record<string, unknown>
    observed.item = rest
  }
  return observed
}
